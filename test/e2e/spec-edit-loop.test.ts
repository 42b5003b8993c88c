/**
 * The spec-edit loop as README tells it, in a temporary copy of the project: add an endpoint and a server event to
 * spec/, run `casi check --fix`, `npm run generate` and `npm start`, then call the new endpoint through the freshly
 * generated client (it answers its example until someone writes a handler) and use the new event's type and
 * validator. Nothing in the real project changes.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HANDOFF_MESSAGE, HANDOFF_PAYLOAD, HANDOFFS_ENDPOINT, insertBefore } from '../fixtures/spec-edits.js';
import { ROOT } from '../generator/helpers.js';

/** The project's tracked files and folders, by their top-level names (node_modules is linked, not copied). */
const PROJECT = [
  ...new Set(
    execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((path) => path.split('/')[0] ?? path),
  ),
].filter((entry) => entry !== 'test' && entry !== 'bench' && !entry.startsWith('.'));

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const copy = mkdtempSync(join(ROOT, 'tmp', 'edit-loop-'));
const children: ChildProcess[] = [];
afterAll(() => {
  // `npm start` runs the server in a shell of its own: the whole process group goes, or the server outlives the test.
  for (const child of children) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group has gone already.
    }
  }
  rmSync(copy, { recursive: true, force: true });
});

/** Runs `command args` in the copy; resolves with its exit code and output. */
function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: copy, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Starts `npm start` in the copy on a port the OS picks; resolves with its address and development key. */
function start(): Promise<{ url: string; key: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CASI_')));
  const child = spawn('npm', ['start', '--silent'], {
    cwd: copy,
    env: { ...clean, PORT: '0', HOST: '127.0.0.1', CASI_DATABASE_URL: 'memory:' },
    detached: true,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no address: ${stdout} ${stderr}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const key = /Development API key: (\S+)/.exec(stdout)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${stdout} ${stderr}`)));
  });
}

describe('editing the spec: a new endpoint and a new server event', () => {
  it('checks, generates, starts, and answers the new endpoint through the generated client', async () => {
    for (const entry of PROJECT) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const openapi = join(copy, 'spec/openapi.yaml');
    insertBefore(openapi, '  /conversations/{conversation_id}:', HANDOFFS_ENDPOINT);
    insertBefore(openapi, '    ServerEventPayload:', HANDOFF_PAYLOAD);
    insertBefore(join(copy, 'spec/asyncapi.yaml'), '    AgentToolCallCreatedEvent:', HANDOFF_MESSAGE);

    // \`npm install\` builds the toolkit (\`prepare\`); the copy has node_modules already, so build it once here.
    expect((await run('npm', ['run', 'build', '--silent'])).code).toBe(0);
    const fixed = await run(process.execPath, ['bin/casi.mjs', 'check', '--fix']);
    expect(fixed.stderr).not.toMatch(/ error /);
    expect(fixed.code, fixed.stderr).toBe(0);
    const generated = await run('npm', ['run', 'generate', '--silent']);
    expect(generated.stderr).not.toMatch(/ error /);
    expect(generated.code).toBe(0);

    const { url, key } = await start();
    const { createClient } = (await import(join(copy, 'generated/src/client.gen.ts'))) as {
      createClient(options: { baseUrl: string; apiKey: string }): {
        conversations: { listHandoffs(id: string): Promise<{ data: { reason: string }[] }> };
      };
    };
    const client = createClient({ baseUrl: url, apiKey: key });
    expect(await client.conversations.listHandoffs('conv_9Xr4Tb2Kp')).toEqual({
      data: [{ reason: 'billing dispute' }],
    });
    // The request is still checked: a conversation id of the wrong shape names no conversation (404, as elsewhere).
    await expect(client.conversations.listHandoffs('not-an-id')).rejects.toMatchObject({ status: 404 });

    const validators = (await import(join(copy, 'generated/src/validators.gen.ts'))) as Record<
      string,
      ((value: unknown) => boolean) | undefined
    >;
    const event = {
      id: 'ev_7Ab2Kq6Wm',
      created_at: '2025-07-02T14:00:06.000Z',
      agent_id: 'ca_7Qk2Lm9Xa@v1',
      livemode: true,
      conversation_id: 'conv_9Xr4Tb2Kp',
      experimental: false,
      payload: { type: 'agent.handoff.requested', reason: 'billing dispute' },
    };
    expect(validators.validateServerEvent?.(event)).toBe(true);
    expect(validators.validateServerEvent?.({ ...event, payload: { type: 'agent.handoff.requested' } })).toBe(false);
  }, 120_000);
});
