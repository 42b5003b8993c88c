/**
 * The two sets of linter rules: `casi check` runs the style rules (here a project's `redocly.yaml` makes them errors),
 * `casi generate` only what generation needs, so that a style finding never stops it and a broken structure always does.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintSpecs } from '../../generator/check/lint.js';
import { ROOT } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-lint-rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the widgets fixture with a `redocly.yaml` asking for the recommended rules, each edit applied. */
function widgets(name: string, edit: { openapi?: (s: string) => string; asyncapi?: (s: string) => string }) {
  const dir = join(work, name);
  cpSync(join(ROOT, 'test/fixtures/widgets'), dir, { recursive: true });
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const files = { openapi: join(dir, 'openapi.yaml'), asyncapi: join(dir, 'asyncapi.yaml') };
  for (const kind of ['openapi', 'asyncapi'] as const)
    writeFileSync(files[kind], (edit[kind] ?? ((s) => s))(readFileSync(files[kind], 'utf8')));
  return files;
}

describe('linter rules for check and for generate', () => {
  it('reports a style finding of a strict project in check, and not for generate', async () => {
    const files = widgets('style', { openapi: (s) => s.replace('      summary: Create a widget\n', '') });
    const style = await lintSpecs(files.openapi, files.asyncapi, 'style');
    expect(style.find((d) => d.rule === 'redocly/operation-summary')).toMatchObject({ severity: 'error' });
    expect(await lintSpecs(files.openapi, files.asyncapi, 'structure')).toEqual([]);
  }, 60_000);

  it('reports a broken structure of either document for generate, at its line', async () => {
    const files = widgets('structure', {
      openapi: (s) =>
        s.replace('      summary: Create a widget\n', '      summary: Create a widget\n      colour: red\n'),
      asyncapi: (s) => s.replace('summary: A ping.', 'summary: A ping.\n      bogus: 1'),
    });
    const found = await lintSpecs(files.openapi, files.asyncapi, 'structure');
    const openapi = found.find((d) => d.rule === 'openapi/structure');
    expect(openapi).toMatchObject({ severity: 'error', file: files.openapi, line: 23 });
    expect(openapi?.message).toContain('colour');
    const asyncapi = found.find((d) => d.rule === 'asyncapi/structure');
    expect(asyncapi).toMatchObject({ severity: 'error', file: files.asyncapi });
    expect(asyncapi?.line).toBeGreaterThan(1);
  }, 60_000);

  it('reports the structure check in check too, so that what check passes generates', async () => {
    const files = widgets('structure-in-check', {
      openapi: (s) =>
        s.replace('      summary: Create a widget\n', '      summary: Create a widget\n      colour: red\n'),
    });
    const style = await lintSpecs(files.openapi, undefined, 'style');
    expect(style.filter((d) => d.severity === 'error' && d.message.includes('colour'))).toEqual([
      expect.objectContaining({ rule: 'openapi/structure', line: 23 }),
    ]);
  }, 60_000);
});
