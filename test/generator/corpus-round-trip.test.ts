/**
 * Real API descriptions written elsewhere (`../shared/spec-corpus/`), end to end: for each OpenAPI document the
 * generated client calls operations of the generated Fastify server over loopback, with every parameter (each in its
 * declared style) and bodies of every media type. The handlers answer schema-valid values; the server validates
 * requests and answers; the test checks that the handler got what the client sent and the client got what the
 * handler answered.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Ir, IrOperation, IrParameter, JsonSchema } from '../../generator/ir/model.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel, emitAll } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { mediaKind } from '../../templates/shared/media.js';
import { ROOT } from './helpers.js';
import { NoSample, sampler } from './sample-values.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');
const documents = readdirSync(CORPUS)
  .filter((name) => /\.openapi\.(ya?ml|json)$/.test(name))
  .sort();

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'round-trip-'));
const servers: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(work, { recursive: true, force: true });
});

/** How many operations of each document make the round trip. */
const CALLS = 8;
/** The bytes of every binary body and answer. */
const BYTES = [0, 1, 2, 250, 255];

/** What one handler received. */
interface Received {
  readonly params: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

/** The first declared 2xx response. */
function success(op: IrOperation) {
  return op.responses.find((r) => /^2(\d\d|XX)$/.test(r.status));
}

/** One planned call: the operation, the arguments the client method takes, and the handler's answer. */
interface Call {
  readonly op: IrOperation;
  readonly path: readonly unknown[];
  readonly query: Record<string, unknown>;
  readonly headers: Record<string, unknown>;
  readonly cookies: Record<string, unknown>;
  readonly body: unknown;
  readonly answer: unknown;
}

/**
 * Values every style carries unchanged: text without the styles' delimiters (`,` `;` `|` `.` `=` `&` `[` `]`),
 * spaces or `#`, and not empty; numbers and booleans; arrays and objects of those.
 */
function travels(value: unknown): boolean {
  if (typeof value === 'string') return /^[A-Za-z0-9_~-]+$/.test(value);
  if (Array.isArray(value)) return value.length > 0 && value.every(travels);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length > 0 && entries.every(([k, v]) => travels(k) && travels(v) && typeof v !== 'object');
  }
  return typeof value === 'number' || typeof value === 'boolean';
}

/** The value of a body of the operation's media type: a sample of its schema, or bytes; undefined when none. */
function bodyOf(op: IrOperation, sample: ReturnType<typeof sampler>, seed: number): unknown {
  if (!op.requestBody) return undefined;
  const { contentType, schema } = op.requestBody;
  switch (mediaKind(contentType)) {
    case 'binary':
      return new Uint8Array(BYTES);
    case 'text':
      return sample(schema, seed, (v) => typeof v === 'string');
    case 'form':
    case 'multipart':
      return sample(schema, seed, (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && travels(v));
    default:
      return sample(schema, seed);
  }
}

/** The handler's answer for the success response: a sample, text, bytes, or two stream items. */
function answerOf(op: IrOperation, sample: ReturnType<typeof sampler>, seed: number): unknown {
  const response = success(op);
  if (response?.contentType === undefined) return undefined;
  const schema = response.schema ?? {};
  switch (mediaKind(response.contentType)) {
    case 'binary':
    case 'multipart':
      return Buffer.from(BYTES);
    case 'text':
      return sample(schema, seed, (v) => typeof v === 'string');
    case 'event-stream':
      return [sample(schema, seed), sample(schema, seed + 1)];
    default:
      return sample(schema, seed);
  }
}

/**
 * Up to `CALLS` calls, operations with a body and path parameters first, then the others in the IR's order; an
 * operation is left out when a schema it needs has no valid value (`oneOf` of two schemas that accept anything).
 */
function plan(ir: Ir, sample: ReturnType<typeof sampler>): Call[] {
  const weight = (op: IrOperation) =>
    (op.requestBody ? 2 : 0) + (op.parameters.path.length > 0 ? 1 : 0) + (op.parameters.query.length > 0 ? 1 : 0);
  const ordered = ir.operations
    // A path with a `#fragment` (one document's way to list variants of one path) is the same path on the wire.
    .filter((op) => op.transport === 'http' && op.method !== 'head' && !op.path.includes('#'))
    .filter((op) => success(op) !== undefined || op.responses.length === 0)
    .map((op, index) => ({ op, index }))
    .sort((a, b) => weight(b.op) - weight(a.op) || a.index - b.index);
  const calls: Call[] = [];
  for (const [i, { op }] of ordered.entries()) {
    if (calls.length === CALLS) break;
    const values = (params: readonly IrParameter[], offset: number) =>
      Object.fromEntries(params.map((p, n) => [p.name, sample(p.schema, 2000 + 10 * i + offset + n, travels)]));
    try {
      const path = values(op.parameters.path, 0);
      calls.push({
        op,
        path: op.parameters.path.map((p) => path[p.name]),
        query: values(op.parameters.query, 100),
        headers: values(op.parameters.header, 200),
        cookies: values(op.parameters.cookie, 300),
        body: bodyOf(op, sample, 3000 + i),
        answer: answerOf(op, sample, 1000 + i),
      });
    } catch (error) {
      if (!(error instanceof NoSample)) throw error;
    }
  }
  return calls;
}

/** Whether a schema (through a `$ref`) is a union, whose text form may read back as another of its branches. */
function isUnion(schema: JsonSchema, ir: Ir): boolean {
  const name = /^#\/components\/schemas\/(.+)$/.exec(String(schema.$ref ?? ''))?.[1];
  const target = name === undefined ? schema : (ir.schemas.find((s) => s.name === name)?.schema ?? schema);
  return Array.isArray(target.oneOf) || Array.isArray(target.anyOf);
}

/** A value as a list: itself when it is one, else a list of it. */
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** What the client method gave back, made comparable: a Blob's bytes, a stream's items. */
async function settled(result: unknown): Promise<unknown> {
  if (result instanceof Blob) return Buffer.from(await result.arrayBuffer());
  if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
    const items: unknown[] = [];
    for await (const item of result as AsyncIterable<unknown>) items.push(item);
    return items;
  }
  return result;
}

/** What the handler got as a body, made comparable: bytes as a Buffer. */
function receivedBody(body: unknown): unknown {
  return body instanceof Uint8Array ? Buffer.from(body) : body;
}

describe.each(documents)('%s, generated client against generated server', (name) => {
  it('calls operations over loopback and gets what the handlers answered', async () => {
    const out = join(work, name.replace(/\..*$/, ''));
    const options = resolveOptions({ openapi: join(CORPUS, name), out });
    const { ir } = await buildModel(options);
    await writeOutput(out, await emitAll(ir, options));
    const calls = plan(ir, sampler(ir));
    expect(calls.length, 'operations this test can call').toBeGreaterThanOrEqual(Math.min(2, ir.operations.length));
    const answers = new Map(calls.map((call) => [call.op.id, call.answer]));

    const received = new Map<string, Received>();
    const handlers = new Proxy(
      {},
      {
        get: (_, id: string) => (req: Received) => {
          received.set(id, { params: req.params, query: req.query, body: req.body });
          const op = ir.operations.find((o) => o.id === id);
          const status = Number((success(op as IrOperation)?.status ?? '200').replace('XX', '00'));
          return { status, body: answers.get(id) };
        },
      },
    );
    const server = (await import(join(out, 'src/server.gen.ts'))) as {
      registerRoutes: (app: FastifyInstance, handlers: object, options: object) => void;
    };
    const app = Fastify();
    servers.push(app);
    server.registerRoutes(app, handlers, { validateResponses: true });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const { createClient } = (await import(join(out, 'src/client.gen.ts'))) as {
      createClient: (options: object) => Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
    };
    const client = createClient({ baseUrl, apiKey: 'key', username: 'user', password: 'secret', maxRetries: 0 });

    for (const { op, path, query, headers, cookies, body, answer } of calls) {
      const where = `${op.method.toUpperCase()} ${op.path}`;
      const args: unknown[] = [...path];
      if (op.requestBody) args.push(body);
      if (op.parameters.query.length > 0) args.push(query);
      if (op.parameters.header.length > 0) args.push(headers);
      if (op.parameters.cookie.length > 0) args.push(cookies);
      args.push({});

      const method = client[op.resource]?.[op.methodName];
      expect(method, `client.${op.resource}.${op.methodName}`).toBeTypeOf('function');
      const result = await settled(await (method as (...args: unknown[]) => Promise<unknown>)(...args));

      const got = received.get(op.id);
      expect(got, `${where} reached its handler`).toBeDefined();
      expect(got?.params, where).toEqual(Object.fromEntries(op.parameters.path.map((p, n) => [p.name, path[n]])));
      for (const p of op.parameters.query) {
        // A one-item list and its item read the same on the wire: a union of both may come back as either.
        const [sent, back] = isUnion(p.schema, ir)
          ? [listOf(query[p.name]), listOf(got?.query[p.name])]
          : [query[p.name], got?.query[p.name]];
        expect(back, `${where} ?${p.name}`).toEqual(sent);
      }
      if (op.requestBody) expect(receivedBody(got?.body), `${where} body`).toEqual(receivedBody(body));
      expect(result, `${where} answer`).toEqual(answer);
    }
  }, 120_000);
});
