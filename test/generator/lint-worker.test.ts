import { describe, expect, it } from 'vitest';
import { LintWorker, lintInWorker } from '../../generator/check/in-worker.js';
import { fixture } from './helpers.js';

const widgets = fixture('widgets');
const streams = fixture('streams');

describe('check: the worker that keeps the validators loaded (generate --watch)', () => {
  it('lints on request, as often as asked, with the findings of a worker of its own', async () => {
    const worker = new LintWorker();
    try {
      const expected = await lintInWorker(widgets.openapi, widgets.asyncapi);
      expect(expected.map((d) => d.rule)).toContain('redocly/no-unused-components');
      expect(await worker.lint(widgets.openapi, widgets.asyncapi)).toEqual(expected);
      // Two jobs at once: each gets its own reply.
      const [again, other] = await Promise.all([
        worker.lint(widgets.openapi, widgets.asyncapi),
        worker.lint(streams.openapi, streams.asyncapi),
      ]);
      expect(again).toEqual(expected);
      expect(other).toEqual(await lintInWorker(streams.openapi, streams.asyncapi));
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('refuses jobs once closed, and fails the one it was running', async () => {
    const worker = new LintWorker();
    const running = worker.lint(widgets.openapi, widgets.asyncapi).catch((e: unknown) => e);
    await worker.close();
    expect(await running).toBeInstanceOf(Error);
    await expect(worker.lint(widgets.openapi, widgets.asyncapi)).rejects.toThrow(/the check worker exited/);
  }, 60_000);
});
