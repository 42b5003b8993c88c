/** `casi conformance` on this service's spec, in process, against servers started here: a good one and a broken one. */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { conformanceInProcess } from './run-casi.js';

const KEY = 'cli_key';
const KEYS = `${KEY}:org_a:write,cli_read:org_a:read,cli_other:org_b:write`;
let good: App;
let broken: App;
let goodUrl: string;
let brokenUrl: string;

/** A reference server; `breakLists` makes `GET /procedural_agents` answer a body its schema refuses. */
async function serve(breakLists: boolean): Promise<[App, string]> {
  const app = createApp({ config: loadConfig({ CASI_API_KEYS: KEYS }).config });
  if (breakLists)
    app.app.addHook('onSend', async (request, _reply, payload) =>
      request.method === 'GET' && request.url === '/procedural_agents' ? '{"data":"not a list"}' : payload,
    );
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return [app, `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`];
}

/** The command in this process (the exit status of a child's is pinned in any-spec.test.ts). */
async function cli(args: readonly string[]): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await conformanceInProcess(args);
  return { code, out: stdout + stderr };
}

beforeAll(async () => {
  [good, goodUrl] = await serve(false);
  [broken, brokenUrl] = await serve(true);
});
afterAll(async () => {
  await good.close();
  await broken.close();
});

describe('casi conformance (this service)', () => {
  it('passes a conforming server given by --base-url (auth matrix included) and prints a table per check', async () => {
    const keys = ['--auth', `bearer:${KEY}`, '--read-key', 'cli_read', '--other-org-key', 'cli_other'];
    const { code, out } = await cli(['--base-url', goodUrl, ...keys, '--runs', '30', '--seed', '1']);
    expect(out).toMatch(/^check\s+cases\s+passed\s+failed\s+known$/m);
    expect(out).toMatch(/^auth_matrix\s+\d+\s+\d+\s+0\s+0$/m);
    expect(out).toMatch(/^response_schema_conformance\s+\d+\s+\d+\s+0\s+0$/m);
    expect(out).toMatch(/^stateful\s+20\s+20\s+0\s+0$/m);
    expect(out).toContain('PASS: 0 failed');
    expect(out).toMatch(/^conformance: \[1\/\d+\] \w+ \(\w+ \/\S*\)$/m);
    expect(code).toBe(0);
  }, 120_000);

  it('fails, naming the check and the operation, on a server whose answer breaks the schema', async () => {
    const { code, out } = await cli(['--base-url', brokenUrl, '--api-key', KEY, '--runs', '5', '--seed', '1']);
    expect(out).toMatch(/^FAIL response_schema_conformance listProceduralAgents: /m);
    expect(out).toContain(
      `REPLAY response_schema_conformance listProceduralAgents: curl -i -X GET '${brokenUrl}/procedural_agents`,
    );
    expect(code).toBe(1);
  }, 120_000);

  it('refuses a half-given target with status 2 and one line', async () => {
    for (const [args, message] of [
      [['--base-url', goodUrl], 'casi: --base-url needs a write key of that server'],
      [['--api-key', KEY], 'casi: --auth/--api-key goes with --base-url'],
    ] as const) {
      const { code, out } = await cli(args);
      expect(out.trim().split('\n')).toEqual([expect.stringContaining(message)]);
      expect(code).toBe(2);
    }
  }, 60_000);
});
