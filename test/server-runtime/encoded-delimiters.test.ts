/**
 * Items that hold their style's own delimiters (`,` `|` space `;` `=` `.` `[` `]` `&`), `%`, `+`, `/` and non-ASCII
 * text, sent by a generated client to its generated Fastify server over loopback in every path, query and cookie
 * style, exploded and not, and as JSON `content` parameters: the handler gets exactly what the client sent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GeneratedPackage, generatePackage } from '../client-runtime/helpers/generated-package.js';
import { ROOT } from '../generator/helpers.js';

/** Every delimiter of every style, inside items. */
const ITEMS = ['a,b', 'c|d', 'e f', 'g;h=i', 'j.k', 'l[m]', 'n&o', '100%', '1+2', 'Grüße ✓', 'p/q?r#s', '%2C'];
/** An object whose member names and values hold the same. */
const OBJECT = { plain: 'a,b;c=d|e f.g', 'odd ,;=.|[]&': '50% +1 ü', 'x%7C': '[y]' };
/** A JSON `content` parameter's value. */
const JSON_VALUE = { text: 'a,b;c=d|e f.g&h', list: [1, '%2C', 'ü'], nested: { ok: true } };

/** A deep object with typed members nested two levels down and an array member. */
const DEEP = {
  type: 'object',
  additionalProperties: false,
  properties: {
    n: { type: 'integer' },
    range: {
      type: 'object',
      properties: { min: { type: 'number' }, at: { type: 'object', properties: { open: { type: 'boolean' } } } },
    },
    ids: { type: 'array', items: { type: 'integer' } },
    label: { type: 'string' },
  },
};
const DEEP_VALUE = { n: 3, range: { min: 1.5, at: { open: false } }, ids: [7, 8], label: 'a[b]=c&d' };

const arraySchema = { type: 'array', items: { type: 'string' } };
const objectSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.keys(OBJECT).map((name) => [name, { type: 'string' }])),
};
const jsonContent = {
  'application/json': {
    schema: {
      type: 'object',
      properties: { text: { type: 'string' }, list: { type: 'array' }, nested: { type: 'object' } },
    },
  },
};

type Location = 'path' | 'query' | 'cookie';
/** [location, style, explode] of each operation; each has an array parameter and an object parameter. */
const STYLES: [Location, string, boolean][] = [
  ['path', 'simple', false],
  ['path', 'simple', true],
  ['path', 'label', false],
  ['path', 'label', true],
  ['path', 'matrix', false],
  ['path', 'matrix', true],
  ['query', 'form', false],
  ['query', 'form', true],
  ['query', 'spaceDelimited', false],
  ['query', 'pipeDelimited', false],
  ['query', 'deepObject', true],
  ['cookie', 'form', false],
  ['cookie', 'form', true],
];

const operationId = (location: string, style: string, explode: boolean) => `${location}${style}${explode}`;
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };

/** The OpenAPI document: one GET per style, and one with a JSON `content` parameter in each location. */
function document(): object {
  const paths: Record<string, object> = {};
  for (const [location, style, explode] of STYLES) {
    const id = operationId(location, style, explode);
    // deepObject describes objects only.
    const params =
      style === 'deepObject'
        ? [['object', objectSchema]]
        : [
            ['array', arraySchema],
            ['object', objectSchema],
          ];
    const path = location === 'path' ? `/${id}/{array}/{object}` : `/${id}`;
    paths[path] = {
      get: {
        operationId: id,
        tags: ['styles'],
        parameters: params.map(([name, schema]) => ({ name, in: location, required: true, style, explode, schema })),
        responses: ok,
      },
    };
  }
  paths['/json/{pathValue}'] = {
    get: {
      operationId: 'jsonContent',
      tags: ['styles'],
      parameters: ['path', 'query', 'header', 'cookie'].map((location) => ({
        name: location === 'header' ? 'X-Value' : `${location}Value`,
        in: location,
        required: true,
        content: jsonContent,
      })),
      responses: ok,
    },
  };
  paths['/deep-nested'] = {
    get: {
      operationId: 'deepNested',
      tags: ['styles'],
      parameters: [{ name: 'filter', in: 'query', required: true, style: 'deepObject', explode: true, schema: DEEP }],
      responses: ok,
    },
  };
  return { openapi: '3.1.0', info: { title: 'Encoded delimiters', version: '1' }, paths };
}

let specDir: string | undefined;
let pkg: GeneratedPackage;
let app: FastifyInstance;
// biome-ignore lint/suspicious/noExplicitAny: the generated client, imported at run time.
let client: any;
/** What the last handler received. */
let received: { params: unknown; query: unknown; headers: Record<string, unknown>; cookies: unknown } | undefined;

/** What the handler received since the last call, once. */
function take(): typeof received {
  const got = received;
  received = undefined;
  return got;
}

beforeAll(async () => {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  specDir = mkdtempSync(join(ROOT, 'tmp', 'encoded-delimiters-spec-'));
  const file = join(specDir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document()));
  pkg = await generatePackage(file, 'encoded-delimiters');
  const server = (await import(join(pkg.dir, 'src/server.gen.ts'))) as {
    registerRoutes: (app: FastifyInstance, handlers: object) => void;
  };
  const handlers = new Proxy(
    {},
    {
      get: () => (req: NonNullable<typeof received>) => {
        received = req;
        return { status: 200, body: {} };
      },
    },
  );
  // An exploded matrix segment repeats the name per item: longer than Fastify's default limit of 100 characters.
  app = Fastify({ maxParamLength: 2000 });
  server.registerRoutes(app, handlers);
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  client = pkg.clientModule.createClient({ baseUrl, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await app?.close();
  pkg?.remove();
  if (specDir !== undefined) rmSync(specDir, { recursive: true, force: true });
});

describe('items holding their style’s delimiters, generated client to generated server', () => {
  it.each(STYLES)('%s %s explode=%s', async (location, style, explode) => {
    const id = operationId(location, style, explode);
    const values = style === 'deepObject' ? { object: OBJECT } : { array: ITEMS, object: OBJECT };
    const method = client.styles[id];
    if (location === 'path') await method(values.array, values.object, {});
    else await method(values, {});
    const part = { path: 'params', query: 'query', cookie: 'cookies' }[location] as 'params' | 'query' | 'cookies';
    expect(take()?.[part]).toEqual(values);
  });

  it('carries a deep object whose nested members are typed, each coming back as its type', async () => {
    await client.styles.deepNested({ filter: DEEP_VALUE }, {});
    expect(take()?.query).toEqual({ filter: DEEP_VALUE });
  });

  it('carries JSON content parameters in the path, query, a header and a cookie', async () => {
    await client.styles.jsonContent(
      JSON_VALUE,
      { queryValue: JSON_VALUE },
      { 'X-Value': JSON_VALUE },
      { cookieValue: JSON_VALUE },
      {},
    );
    const got = take();
    expect(got?.params).toEqual({ pathValue: JSON_VALUE });
    expect(got?.query).toEqual({ queryValue: JSON_VALUE });
    expect(got?.headers['x-value']).toEqual(JSON_VALUE);
    expect(got?.cookies).toEqual({ cookieValue: JSON_VALUE });
  });
});
