/**
 * `casi serve --openapi F`: any spec served from its examples and schemas. The values built from schemas are valid
 * against them; the command serves real documents written elsewhere over loopback, refuses bad requests and stops
 * cleanly on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createClient } from '../../generated/src/client.gen.js';
import type { Ir } from '../../generator/ir/model.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel } from '../../generator/pipeline.js';
import { createAjv, toAjvSchema } from '../../generator/schema/ajv.js';
import { sampleOf } from '../../generator/schema/sample.js';
import { agentConfig } from '../e2e/fixtures.js';
import { HANDOFFS_ENDPOINT, insertBefore } from '../fixtures/spec-edits.js';
import { readUntil } from '../server-runtime/sse-io.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = join(ROOT, '../shared/spec-corpus');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** The response schemas of every operation of `ir`, with where they are. */
function responseSchemas(ir: Ir) {
  return ir.operations.flatMap((op) =>
    op.responses
      .filter((r) => r.schema !== undefined && /json/.test(r.contentType ?? ''))
      .map((r) => ({ where: `${op.method} ${op.path} ${r.status}`, schema: r.schema ?? {} })),
  );
}

/** Starts `casi serve` with `args` on an OS-chosen port; resolves with its base URL once it listens. */
function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stdout: () => string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/casi.mjs'), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  return new Promise((done, fail) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      // The reference server prints its development key after its address.
      if (url && (!stdout.includes('reference server') || stdout.includes('Console:')))
        done({ url, child, stdout: () => stdout });
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code) => fail(new Error(`casi serve exited ${code}: ${stderr}`)));
  });
}

describe('values built from schemas', () => {
  it.each(['petstore-expanded.openapi.json', 'museum.openapi.yaml', 'tictactoe.openapi.yaml', 'uspto.openapi.json'])(
    'are valid against every JSON response schema of %s',
    async (name) => {
      const { ir } = await buildModel(resolveOptions({ openapi: join(CORPUS, name) }));
      const ajv = createAjv(ir, { standalone: false });
      const schemas = new Map(ir.schemas.map((s) => [s.name, s.schema]));
      const found = responseSchemas(ir);
      expect(found.length).toBeGreaterThan(0);
      for (const { where, schema } of found) {
        const value = sampleOf(schema, (n) => schemas.get(n));
        const valid = ajv.compile(toAjvSchema(schema) as object);
        expect(valid(value), `${where}: ${JSON.stringify(value)} ${JSON.stringify(valid.errors)}`).toBe(true);
      }
    },
    60_000,
  );
});

describe('casi serve --openapi', () => {
  it('answers a document written elsewhere from its examples and schemas, and refuses bad requests in its error shape', async () => {
    const { url, child, stdout } = await serve(['--openapi', join(CORPUS, 'petstore-expanded.openapi.json')]);
    expect(stdout()).toMatch(/CASI serving Swagger Petstore on http:\/\/127\.0\.0\.1:\d+: 4 operation\(s\)/);
    const list = await fetch(`${url}/pets?limit=2`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(await list.json())).toBe(true);
    const pet = await fetch(`${url}/pets/7`);
    expect(await pet.json()).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    const badId = await fetch(`${url}/pets/seven`);
    expect(badId.status).toBe(404);
    const badBody = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tag: 'no name' }),
    });
    expect(badBody.status).toBe(400);
    // In the spec's own `default` error shape (an integer code and a message), not the service's `Error`.
    expect(await badBody.json()).toEqual({ code: expect.any(Number), message: expect.any(String) });
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex' }),
    });
    expect(created.status).toBe(200);
    child.kill('SIGTERM');
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(0);
  }, 60_000);

  it("serves a version of this service's own spec with the reference handlers, and a new operation from its example", async () => {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'tmp', 'serve-own-'));
    try {
      cpSync(join(ROOT, 'spec'), dir, { recursive: true });
      insertBefore(join(dir, 'openapi.yaml'), '  /conversations/{conversation_id}:', HANDOFFS_ENDPOINT);
      const args = ['--openapi', join(dir, 'openapi.yaml'), '--asyncapi', join(dir, 'asyncapi.yaml')];
      const { url, stdout } = await serve(args, { CASI_DATABASE_URL: 'memory:' });
      const key = /Development API key: (\S+)/.exec(stdout())?.[1] ?? '';
      const client = createClient({ baseUrl: url, apiKey: key });
      // Stateful: what is created can be read back.
      const agent = await client.conversationalAgents.create({ name: 'Ava', config: agentConfig() });
      expect((await client.conversationalAgents.retrieve(agent.id)).name).toBe('Ava');
      const headers = { authorization: `Bearer ${key}`, 'service-version': '2025-06-19' };
      const handoffs = await fetch(`${url}/conversations/conv_9Xr4Tb2Kp/handoffs`, { headers });
      expect(await handoffs.json()).toEqual({ data: [{ reason: 'billing dispute' }] });
      // The reference server's own checks apply to the new operation too.
      expect((await fetch(`${url}/conversations/conv_9Xr4Tb2Kp/handoffs`)).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves a stream channel of an AsyncAPI document: its messages as JSON lines, open until the client leaves', async () => {
    const { url, stdout } = await serve(['--asyncapi', join(CORPUS, 'gitter-streaming.asyncapi.yaml')]);
    expect(stdout()).toMatch(/0 operation\(s\) and 1 channel\(s\) answer from examples and schemas/);
    const controller = new AbortController();
    const response = await fetch(`${url}/rooms/53307860c3599d1de448e19d/chatMessages`, {
      method: 'POST',
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const { text, ended } = await readUntil(response, (t) => t.split('\n').length > 2);
    controller.abort();
    expect(ended).toBe(false);
    const message = JSON.parse(text.split('\n')[0] ?? '') as unknown;
    expect(message).toMatchObject({ id: expect.any(String), text: expect.any(String), fromUser: expect.any(Object) });
    // `resource` is one of chatMessages and events.
    expect((await fetch(`${url}/rooms/r1/nothing`, { method: 'POST' })).status).toBe(400);
  }, 60_000);

  it('serves a WebSocket channel: a sample of each message it sends, 1007 for a message it does not carry', async () => {
    const { url } = await serve(['--asyncapi', join(CORPUS, 'gemini-websocket.asyncapi.yaml')]);
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/marketdata/btcusd?heartbeat=true`);
    const first = await new Promise<unknown>((resolve, reject) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data))));
      socket.once('error', reject);
    });
    expect(first).toMatchObject({ type: expect.any(String) });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('{"not": "a message of this channel"}');
    expect(await closed).toBe(1007);
  }, 60_000);

  it('answers a binary response with bytes of its media type, and the spec example where there is one', async () => {
    const { url } = await serve(['--openapi', join(CORPUS, 'museum.openapi.yaml')]);
    const hours = await fetch(`${url}/museum-hours`, { headers: { authorization: 'Basic dTpw' } });
    expect(hours.status).toBe(200);
    const body = (await hours.json()) as { date: string }[];
    expect(body[0]?.date).toBe('2023-09-11');
    const code = await fetch(`${url}/tickets/a54a57ca-36f8-421b-a6b4-2e8f26858a4c/qr`, {
      headers: { authorization: 'Basic dTpw' },
    });
    expect(code.status).toBe(200);
    expect(code.headers.get('content-type')).toBe('image/png');
    expect((await code.arrayBuffer()).byteLength).toBe(0);
  }, 60_000);

  it('stops with the check diagnostics and exit 1 when the document has errors', async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/casi.mjs'), 'serve', '--openapi', join(ROOT, 'package.json')],
      {
        cwd: ROOT,
      },
    );
    children.push(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(stderr).toMatch(/package\.json:1:1 error This is not an OpenAPI 3\.0 or 3\.1 document/);
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
