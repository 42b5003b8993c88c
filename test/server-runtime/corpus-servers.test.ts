/**
 * Servers generated from API descriptions written elsewhere (`../shared/spec-corpus/`): each is registered on a real
 * Fastify instance listening on loopback, and a few routes are called over HTTP: parameter styles, multipart, byte
 * bodies and answers, integer path parameters and validation.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import type { HttpHandler, RouteDefinition } from '../../templates/server/index.js';
import { ROOT } from '../generator/helpers.js';
import { send } from './media-server.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');
const DOCUMENTS = ['readme-parameter-styles', 'swagger-petstore3', 'museum'] as const;
type Document = (typeof DOCUMENTS)[number];

/** What a generated `server.gen.ts` exports that the test uses. */
interface ServerModule {
  readonly routes: readonly RouteDefinition[];
  registerRoutes(app: FastifyInstance, handlers: never, options?: object): void;
}

// Under the project, so that the generated code resolves the project's packages (fastify, ajv helpers, …).
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'server-corpus-'));
const servers = new Map<Document, { app: FastifyInstance; url: string; routes: readonly RouteDefinition[] }>();

/** Echoes what the handler received: decoded parameters, headers it asks for, and a description of the body. */
const echo: HttpHandler = (req) => ({
  status: 200,
  body: {
    params: req.params,
    query: req.query,
    cookies: req.cookies,
    headers: {
      array: (req.headers as Record<string, unknown>).array,
      object: (req.headers as Record<string, unknown>).object,
    },
    body: Buffer.isBuffer(req.body) ? { bytes: req.body.length } : describeFields(req.body),
  },
});

function describeFields(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, value instanceof Blob ? { blobSize: value.size } : value]),
  );
}

/** Generates the server of `name` (once) and starts it with `handlers` (echo for the others) and `options`. */
async function start(name: Document, handlers: Record<string, HttpHandler>, options: object = {}) {
  const out = join(work, name);
  if (!servers.has(name)) {
    const generation = resolveOptions({ openapi: join(CORPUS, `${name}.openapi.yaml`), out });
    await writeOutput(out, (await generate(generation)).files);
  }
  const module = (await import(join(out, 'src/server.gen.ts'))) as ServerModule;
  const all = Object.fromEntries(
    module.routes.map((route) => [route.operationId, handlers[route.operationId] ?? echo]),
  );
  const app = Fastify();
  module.registerRoutes(app, all as never, options);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, routes: module.routes };
}

/** The museum again, with responses validated: `getSpecialEvent` answers 404, a broken problem for event `0…0`. */
let strictMuseum: { app: FastifyInstance; url: string };
const BROKEN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  servers.set('readme-parameter-styles', await start('readme-parameter-styles', {}));
  servers.set('swagger-petstore3', await start('swagger-petstore3', {}));
  servers.set(
    'museum',
    await start('museum', {
      getTicketCode: () => ({ status: 200, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]) }),
    }),
  );
  const notFound: HttpHandler = (req) => {
    const broken = (req.params as { eventId: string }).eventId === BROKEN;
    return { status: 404, body: { type: 'about:blank', title: broken ? 404 : 'No such event' } };
  };
  strictMuseum = await start('museum', { getSpecialEvent: notFound }, { validateResponses: true });
}, 120_000);
afterAll(async () => {
  await Promise.all([...servers.values(), strictMuseum].map((s) => s.app.close()));
  rmSync(work, { recursive: true, force: true });
});

/** The server of `name`, and the method of its operation `id`. */
function server(name: Document, id?: string) {
  const found = servers.get(name);
  if (found === undefined) throw new Error(`${name} did not start`);
  const method = found.routes.find((route) => route.operationId === id)?.method ?? 'GET';
  return { url: found.url, method };
}

describe('readme-parameter-styles', () => {
  it('reads matrix, label and simple path parameters, exploded or not', async () => {
    const matrix = server('readme-parameter-styles', 'paths_matrix_exploded');
    const m = await send(matrix.url, '/anything/path/matrix/;primitive=p/;array=a;array=b/;name=n;description=d', {
      method: matrix.method,
    });
    expect(m.status, String(m.body)).toBe(200);
    expect((m.json() as { params: unknown }).params).toEqual({
      primitive: 'p',
      array: ['a', 'b'],
      object: { name: 'n', description: 'd' },
    });
    const label = server('readme-parameter-styles', 'paths_label_nonExploded');
    const l = await send(label.url, '/anything/path/label/.p/.a,b/.name,n,description,d', { method: label.method });
    expect((l.json() as { params: unknown }).params).toEqual({
      primitive: 'p',
      array: ['a', 'b'],
      object: { name: 'n', description: 'd' },
    });
  });

  it('reads deepObject, pipeDelimited and spaceDelimited queries', async () => {
    const deep = server('readme-parameter-styles', 'query_deepObject_nonExploded');
    const d = await send(deep.url, '/anything/query/deepObject?object[name]=n&object[description]=d', {
      method: deep.method,
    });
    expect((d.json() as { query: unknown }).query).toEqual({ object: { name: 'n', description: 'd' } });
    const pipe = server('readme-parameter-styles', 'query_pipeDelimited_nonExploded');
    const p = await send(pipe.url, '/anything/query/pipeDelimited?array=a|b&object=name|n|description|d', {
      method: pipe.method,
    });
    expect((p.json() as { query: unknown }).query).toMatchObject({
      array: ['a', 'b'],
      object: { name: 'n', description: 'd' },
    });
  });

  it('reads simple headers into arrays and objects', async () => {
    const headers = server('readme-parameter-styles', 'headers_simple_exploded');
    const h = await send(headers.url, '/anything/headers/simple', {
      method: headers.method,
      headers: { array: 'a,b', object: 'name=n,description=d' },
    });
    expect((h.json() as { headers: unknown }).headers).toEqual({
      array: ['a', 'b'],
      object: { name: 'n', description: 'd' },
    });
  });

  it('reads form cookies: repeated names as an array, an exploded object from its members', async () => {
    const cookies = server('readme-parameter-styles', 'cookies_standard');
    const c = await send(cookies.url, '/cookies', {
      headers: { cookie: 'primitive=p; array=a; array=b; name=n; description=d%20e; session=other' },
    });
    expect((c.json() as { cookies: unknown }).cookies).toEqual({
      primitive: 'p',
      array: ['a', 'b'],
      object: { name: 'n', description: 'd e' },
      session: 'other',
    });
  });

  it('reads a multipart body: repeated names as an array, the object part as JSON', async () => {
    const multipart = server('readme-parameter-styles', 'formData_standard');
    const form = new FormData();
    form.append('primitive', 'p');
    form.append('array', 'a');
    form.append('array', 'b');
    form.append('object', JSON.stringify({ name: 'n', description: 'd' }));
    const response = await fetch(`${multipart.url}/anything/form-data`, { method: multipart.method, body: form });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { body: unknown }).body).toEqual({
      primitive: 'p',
      array: ['a', 'b'],
      object: { name: 'n', description: 'd' },
    });
  });
});

describe('swagger-petstore3', () => {
  it('gives an integer path parameter as a number, and answers 404 for one that is not', async () => {
    const { url } = server('swagger-petstore3');
    const pet = await send(url, '/pet/7');
    expect((pet.json() as { params: unknown }).params).toEqual({ petId: 7 });
    const other = await send(url, '/pet/seven');
    expect(other.status).toBe(404);
  });

  it('takes an octet-stream upload as bytes beside an integer path parameter and a query string', async () => {
    const { url } = server('swagger-petstore3');
    const answer = await send(url, '/pet/7/uploadImage?additionalMetadata=front', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(300, 1),
    });
    expect(answer.json()).toMatchObject({
      params: { petId: 7 },
      query: { additionalMetadata: 'front' },
      body: { bytes: 300 },
    });
  });

  it('validates a JSON body against its component schema', async () => {
    const { url } = server('swagger-petstore3');
    const answer = await send(url, '/pet', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', photoUrls: 'not a list' }),
    });
    expect(answer.status).toBe(400);
    expect((answer.json() as { data: unknown }).data).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'body', pointer: '/photoUrls' })]),
    );
  });
});

describe('museum', () => {
  it('answers image/png with the bytes the handler returns', async () => {
    const { url } = server('museum');
    const answer = await send(url, '/tickets/a54a57ca-36f8-421b-a6b4-2e8f26858a4c/qr');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect([...answer.body]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2]);
  });

  it('answers application/problem+json, validated against its schema when responses are checked', async () => {
    const found = await send(strictMuseum.url, '/special-events/dad4bce8-f5cb-4078-a211-995864315e39');
    expect(found.status).toBe(404);
    expect(found.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(found.json()).toEqual({ type: 'about:blank', title: 'No such event' });
    const broken = await send(strictMuseum.url, `/special-events/${BROKEN}`);
    expect(broken.status).toBe(500);
  });

  it('coerces integer query parameters and refuses one over its maximum', async () => {
    const { url } = server('museum');
    const ok = await send(url, '/museum-hours?startDate=2023-02-23&limit=15');
    expect((ok.json() as { query: unknown }).query).toEqual({ startDate: '2023-02-23', limit: 15 });
    const over = await send(url, '/museum-hours?limit=31');
    expect(over.status).toBe(400);
    expect((over.json() as { data: unknown }).data).toEqual([
      { in: 'query', pointer: '/limit', message: 'must be <= 30' },
    ]);
  });
});
