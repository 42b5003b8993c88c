/**
 * `casi serve` as `npm start` runs it: a fresh process on port 0 prints its address and development key, answers
 * the generated client, and exits 0 on SIGTERM even with a stream and a session open; a bad configuration exits 1
 * naming the variable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/src/client.gen.js';
import { agentConfig } from './fixtures.js';

const CLI = join(import.meta.dirname, '../../bin/casi.mjs');
/** Longest wait for the process to start, answer or exit (it compiles TypeScript on the fly). */
const PROCESS_MS = 20_000;

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Starts `casi serve` with `args` and an environment without `CASI_*`, `PORT` or `HOST` (plus `env`), keeping its
 * state in memory unless `env` names a database.
 */
function serve(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CASI_') && name !== 'PORT' && name !== 'HOST'),
  );
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...clean, CASI_DATABASE_URL: 'memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once stdout matches every pattern; rejects when the process exits first or time runs out. */
  const printed = (patterns: RegExp[]) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; stdout: ${stdout} stderr: ${stderr}`)), PROCESS_MS);
      const check = () => {
        if (patterns.every((p) => p.test(stdout))) {
          clearTimeout(timer);
          resolve(stdout);
        }
      };
      child.stdout?.on('data', check);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}; stdout: ${stdout} stderr: ${stderr}`));
      });
    });
  return { child, exited, printed, output: () => ({ stdout, stderr }) };
}

/** The exit code, or a failure after `PROCESS_MS`. */
async function within(exited: Promise<number | null>): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the process did not exit')), PROCESS_MS);
  });
  try {
    return await Promise.race([exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('casi serve', () => {
  it(
    'prints the address and development key, answers the client, and exits 0 on SIGTERM',
    async () => {
      const server = serve(['--port', '0']);
      const LISTENING = /CASI reference server listening on (http:\/\/127\.0\.0\.1:(\d+))\n/;
      const KEY = /Development API key: (casi_dev_\w+)\n/;
      const stdout = await server.printed([LISTENING, KEY]);
      const [, baseUrl = '', port = ''] = LISTENING.exec(stdout) ?? [];
      const [, apiKey = ''] = KEY.exec(stdout) ?? [];
      expect(Number(port)).toBeGreaterThan(0);

      const client = createClient({ baseUrl, apiKey, maxRetries: 0, timeoutMs: 10_000 });
      expect(await client.conversations.list().firstPage()).toEqual({ data: [], cursor: null });
      await expect(createClient({ baseUrl, maxRetries: 0 }).conversations.list().firstPage()).rejects.toMatchObject({
        status: 401,
      });

      // Open connections (an SSE stream and a WebSocket session) do not hold the shutdown back.
      const agent = await client.conversationalAgents.create({
        name: 'Ava',
        description: '',
        config: agentConfig(),
        postprocess_agents: [],
      });
      const conversation = await client.conversations.create({
        agent_id: agent.id,
        channel: { type: 'chat_realtime' },
      });
      const session = client.conversations.session(conversation.id, { maxReconnects: 0 });
      const stream = client.conversations.events(conversation.id, { maxReconnects: 0 });
      try {
        await session.ready;
        // The first event arrived and the stream stays open: the iterator is left suspended, not returned.
        const first = await stream[Symbol.asyncIterator]().next();
        expect(first.value).toMatchObject({ payload: { type: 'conversation.setup' } });
        server.child.kill('SIGTERM');
        expect(await within(server.exited)).toBe(0);
      } finally {
        session.close();
        stream.close();
      }
      expect(server.output().stdout).toMatch(/Received SIGTERM; shutting down\.\n$/);
      expect(server.output().stderr).toBe('');
    },
    PROCESS_MS * 2,
  );

  it.each<{ name: string; env: Record<string, string>; args?: string[]; message: RegExp }>([
    {
      name: 'HOST=0.0.0.0 without keys',
      env: { HOST: '0.0.0.0' },
      message: /^casi serve: CASI_API_KEYS: must be set when HOST \(0\.0\.0\.0\) is not a loopback address/,
    },
    {
      name: 'CASI_TOKEN_TTL_SECONDS=soon',
      env: { CASI_TOKEN_TTL_SECONDS: 'soon' },
      message: /^casi serve: CASI_TOKEN_TTL_SECONDS: must be an integer/,
    },
    {
      name: 'CASI_TOKEN_TTL_SECONDS=9007199254740991 (over 10 years)',
      env: { CASI_TOKEN_TTL_SECONDS: '9007199254740991' },
      message: /^casi serve: CASI_TOKEN_TTL_SECONDS: must be an integer from 1 to 315360000, not "9007199254740991"\n/,
    },
    {
      name: 'CASI_API_KEYS with a bad third entry',
      env: { CASI_API_KEYS: 'k1,k2,k3:org:admin' },
      message: /^casi serve: CASI_API_KEYS: entry 3 \(\*\*\*\*\): the scope must be read or write, not "admin"\n/,
    },
    {
      name: 'CASI_CORS_ORIGIN=app.example.com',
      env: { CASI_CORS_ORIGIN: 'app.example.com' },
      message: /^casi serve: CASI_CORS_ORIGIN: must be \*, off or an origin/,
    },
    {
      name: 'CASI_DATABASE_URL=mysql://db/casi',
      env: { CASI_DATABASE_URL: 'mysql://db/casi' },
      message:
        /^casi serve: CASI_DATABASE_URL: must be memory:, file:PATH or a postgres:\/\/ URL, not "mysql:\/\/db\/casi"\n/,
    },
    {
      name: 'CASI_DATABASE_URL naming a PostgreSQL server that does not answer',
      env: { CASI_DATABASE_URL: 'postgres://casi:secret@127.0.0.1:1/casi' },
      message:
        /^casi serve: CASI_DATABASE_URL: cannot open the database \(PostgreSQL at postgres:\/\/casi:\*\*\*\*@127\.0\.0\.1:1\/casi\): .+\n$/,
    },
  ])(
    'refuses $name with exit 1 and a message naming the variable or flag',
    async ({ env, args = ['--port', '0'], message }) => {
      const server = serve(args, env);
      expect(await within(server.exited)).toBe(1);
      expect(server.output().stderr).toMatch(message);
      expect(server.output().stdout).toBe('');
    },
    PROCESS_MS * 2,
  );

  it.each([['70000'], ['abc'], ['-1']])(
    'refuses --port %s as a usage error: exit 2, naming the flag',
    async (port) => {
      const server = serve(['--port', port]);
      expect(await within(server.exited)).toBe(2);
      expect(server.output().stderr).toMatch(/^casi: --port must be an integer from 0 to 65535\n/);
      expect(server.output().stdout).toBe('');
    },
    PROCESS_MS * 2,
  );

  it.each([[['--port', '']], [['--port']], [['--port', '1', '--port', '2']]])(
    'refuses %j as a usage error: exit 2, naming the flag',
    async (args) => {
      const server = serve(args);
      expect(await within(server.exited)).toBe(2);
      expect(server.output().stderr).toMatch(/^casi: --port (needs a value|was given more than once)\n/);
      expect(server.output().stdout).toBe('');
    },
    PROCESS_MS * 2,
  );
});
