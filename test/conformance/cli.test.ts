/** `npm run conformance` as a user runs it, against servers started here: a conforming one and a broken one. */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { ROOT } from './lint.js';

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

function cli(args: readonly string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/conformance/cli.ts', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, out: stdout + stderr }),
    );
  });
}

beforeAll(async () => {
  [good, goodUrl] = await serve(false);
  [broken, brokenUrl] = await serve(true);
});
afterAll(async () => {
  await good.close();
  await broken.close();
});

describe('npm run conformance', () => {
  it('passes a conforming server given by --base-url (auth matrix included) and prints a table per check', async () => {
    const keys = ['--api-key', KEY, '--read-key', 'cli_read', '--other-org-key', 'cli_other'];
    const { code, out } = await cli(['--base-url', goodUrl, ...keys, '--runs', '30', '--seed', '1']);
    expect(out).toMatch(/^check\s+cases\s+passed\s+failed\s+known$/m);
    expect(out).toMatch(/^auth_matrix\s+\d+\s+\d+\s+0\s+0$/m);
    expect(out).toMatch(/^response_schema_conformance\s+\d+\s+\d+\s+0\s+0$/m);
    expect(out).toMatch(/^stateful\s+20\s+20\s+0\s+0$/m);
    expect(out).toContain('PASS: 0 failed');
    expect(code).toBe(0);
  }, 120_000);

  it('fails, naming the check and the operation, on a server whose answer breaks the schema', async () => {
    const { code, out } = await cli(['--base-url', brokenUrl, '--api-key', KEY, '--runs', '30', '--seed', '1']);
    expect(out).toMatch(/^FAIL response_schema_conformance listProceduralAgents: /m);
    expect(code).toBe(1);
  }, 120_000);

  it('refuses a half-given target with status 2', async () => {
    const { code, out } = await cli(['--base-url', goodUrl]);
    expect(out).toContain('--base-url and --api-key go together');
    expect(code).toBe(2);
  });
});
