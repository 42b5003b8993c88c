/**
 * `casi conformance` on AsyncAPI channels: the `casi serve` mocks of corpus documents (WebSocket and stream channels)
 * pass, and a server with planted channel faults (a WebSocket message breaking its schema, an event lost on resume)
 * has each found with its replay, while its right channel passes the resume check.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lint.js';
import { startPlantedChannels } from './planted/channels.js';
import { conformanceInProcess, startMock } from './run-casi.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');
const PLANTED = join(ROOT, 'test/conformance/planted/asyncapi.yaml');

/** The summary row of `check`: cases, passed, failed (undefined when the check did not run). */
function row(stdout: string, check: string): { cases: number; passed: number; failed: number } | undefined {
  const match = new RegExp(`^${check}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\d+$`, 'm').exec(stdout);
  return match ? { cases: Number(match[1]), passed: Number(match[2]), failed: Number(match[3]) } : undefined;
}

describe('casi conformance against casi serve of corpus AsyncAPI documents', () => {
  it.each([
    ['gemini-websocket', ['channel_framing', 'channel_message_schema']],
    ['gitter-streaming', ['channel_framing', 'channel_message_schema']],
    ['slack-rtm', ['channel_framing', 'channel_message_schema', 'channel_message_acceptance']],
  ])(
    '%s: every channel checked, nothing wrong with the mock',
    async (name, checks) => {
      const spec = join(CORPUS, `${name}.asyncapi.yaml`);
      const mock = await startMock({ asyncapi: spec });
      try {
        const run = await conformanceInProcess([
          '--asyncapi',
          spec,
          '--base-url',
          mock.url,
          '--runs',
          '3',
          '--seed',
          '2',
        ]);
        for (const check of checks) expect(row(run.stdout, check)?.cases, check).toBeGreaterThan(0);
        expect(run.stdout).not.toMatch(/^FAIL /m);
        expect(run.code).toBe(0);
      } finally {
        await mock.app.close();
      }
    },
    10_000,
  );
});

describe('casi conformance against a server with planted channel faults', () => {
  it('finds the WebSocket message that breaks its schema and the event lost on resume, each with its replay', async () => {
    const server = await startPlantedChannels();
    try {
      const run = await conformanceInProcess([
        '--asyncapi',
        PLANTED,
        '--base-url',
        server.url,
        '--runs',
        '3',
        '--seed',
        '2',
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^FAIL channel_message_schema ticks: .*\/n must be integer.*"n":"two"/m);
      expect(run.stdout).toContain(`REPLAY channel_message_schema ticks: websocat 'ws://${server.url.slice(7)}/ticks'`);
      expect(run.stdout).toMatch(/^FAIL stream_resume lossy: resumed with Last-Event-ID 2: event 3 was lost/m);
      expect(run.stdout).toContain(`REPLAY stream_resume lossy: curl -N -H 'Last-Event-ID: 2' '${server.url}/lossy'`);
      // The right stream resumes across every cut, and the session takes the pings it documents.
      expect(run.stdout).not.toMatch(/^FAIL \w+ feed/m);
      expect(row(run.stdout, 'stream_resume')).toEqual({ cases: 4, passed: 3, failed: 1 });
      expect(row(run.stdout, 'channel_message_acceptance')?.failed).toBe(0);
      expect(row(run.stdout, 'channel_message_acceptance')?.cases).toBe(4);
    } finally {
      await server.app.close();
    }
  }, 10_000);
});
