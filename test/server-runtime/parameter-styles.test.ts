/**
 * Every style and explode combination of the OpenAPI style examples (3.1.0 §4.8.12.4, and the RFC 6570 label lists
 * of 3.1.1) sent over HTTP to a real server and read back into the value the schema describes before validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler, ParameterDecoding, RouteDefinition, ValueShape } from '../../templates/server/index.js';
import { validator } from './fixture.js';
import { type MediaServer, open, send, serve } from './media-server.js';

type Kind = 'string' | 'array' | 'object';
type Location = 'path' | 'query' | 'header' | 'cookie';

const SHAPES: Record<Kind, ValueShape> = {
  string: { type: 'string' },
  array: { items: 'string' },
  object: { properties: { R: 'integer', G: 'integer', B: 'integer' } },
};
const SCHEMAS: Record<Kind, object> = {
  string: { type: 'string' },
  array: { type: 'array', items: { type: 'string' } },
  object: {
    type: 'object',
    additionalProperties: false,
    required: ['R', 'G', 'B'],
    properties: { R: { type: 'integer' }, G: { type: 'integer' }, B: { type: 'integer' } },
  },
};
const VALUES: Record<Kind, unknown> = {
  string: 'blue',
  array: ['blue', 'black', 'brown'],
  object: { R: 100, G: 200, B: 150 },
};
const PART = { path: 'params', query: 'query', header: 'headers', cookie: 'cookies' } as const;

/** One route per location, style, explode and kind; its parameter is `color` (`x-color` as a header). */
function routeOf(location: Location, style: string, explode: boolean, kind: Kind): RouteDefinition {
  const name = location === 'header' ? 'x-color' : 'color';
  const decoding: ParameterDecoding = { style, explode, shape: SHAPES[kind] };
  const base = `/${location}/${style}/${explode}/${kind}`;
  const schema = {
    type: 'object',
    required: [name],
    properties: { [name]: SCHEMAS[kind] },
    additionalProperties: location === 'header' || location === 'cookie',
  };
  return {
    ...open,
    operationId: `${location}_${style}_${explode}_${kind}`,
    method: 'GET',
    path: location === 'path' ? `${base}/{color}` : base,
    validators: { [PART[location]]: validator(`${location}Schema`, schema) },
    parameters: { [location]: { [name]: decoding } },
    responses: { '200': {} },
  };
}

/** Sends `color` serialised as `text` in `location`; returns the decoded value the handler saw. */
async function roundTrip(location: Location, style: string, explode: boolean, kind: Kind, text: string) {
  const base = `/${location}/${style}/${explode}/${kind}`;
  const answer =
    location === 'path'
      ? await send(server.url, `${base}/${text}`)
      : location === 'query'
        ? await send(server.url, `${base}?${text}`)
        : await send(server.url, base, { headers: { [location === 'header' ? 'x-color' : 'cookie']: text } });
  expect(answer.status, String(answer.body)).toBe(200);
  return answer.json();
}

/** [location, style, explode, kind, serialised] rows of the examples table (3.1.0, then 3.1.1 where they differ). */
const TABLE: [Location, string, boolean, Kind, string][] = [
  ['path', 'matrix', false, 'string', ';color=blue'],
  ['path', 'matrix', false, 'array', ';color=blue,black,brown'],
  ['path', 'matrix', false, 'object', ';color=R,100,G,200,B,150'],
  ['path', 'matrix', true, 'string', ';color=blue'],
  ['path', 'matrix', true, 'array', ';color=blue;color=black;color=brown'],
  ['path', 'matrix', true, 'object', ';R=100;G=200;B=150'],
  ['path', 'label', false, 'string', '.blue'],
  ['path', 'label', false, 'array', '.blue.black.brown'],
  ['path', 'label', false, 'array', '.blue,black,brown'],
  ['path', 'label', false, 'object', '.R.100.G.200.B.150'],
  ['path', 'label', false, 'object', '.R,100,G,200,B,150'],
  ['path', 'label', true, 'string', '.blue'],
  ['path', 'label', true, 'array', '.blue.black.brown'],
  ['path', 'label', true, 'object', '.R=100.G=200.B=150'],
  ['path', 'simple', false, 'string', 'blue'],
  ['path', 'simple', false, 'array', 'blue,black,brown'],
  ['path', 'simple', false, 'object', 'R,100,G,200,B,150'],
  ['path', 'simple', true, 'string', 'blue'],
  ['path', 'simple', true, 'array', 'blue,black,brown'],
  ['path', 'simple', true, 'object', 'R=100,G=200,B=150'],
  ['header', 'simple', false, 'string', 'blue'],
  ['header', 'simple', false, 'array', 'blue,black,brown'],
  ['header', 'simple', false, 'object', 'R,100,G,200,B,150'],
  ['header', 'simple', true, 'string', 'blue'],
  ['header', 'simple', true, 'array', 'blue,black,brown'],
  ['header', 'simple', true, 'object', 'R=100,G=200,B=150'],
  ['query', 'form', false, 'string', 'color=blue'],
  ['query', 'form', false, 'array', 'color=blue,black,brown'],
  ['query', 'form', false, 'object', 'color=R,100,G,200,B,150'],
  ['query', 'form', true, 'string', 'color=blue'],
  ['query', 'form', true, 'array', 'color=blue&color=black&color=brown'],
  ['query', 'form', true, 'object', 'R=100&G=200&B=150'],
  ['query', 'spaceDelimited', false, 'array', 'color=blue%20black%20brown'],
  ['query', 'spaceDelimited', false, 'object', 'color=R%20100%20G%20200%20B%20150'],
  ['query', 'pipeDelimited', false, 'array', 'color=blue|black|brown'],
  ['query', 'pipeDelimited', false, 'object', 'color=R|100|G|200|B|150'],
  ['query', 'deepObject', true, 'object', 'color[R]=100&color[G]=200&color[B]=150'],
  ['cookie', 'form', false, 'string', 'color=blue'],
  ['cookie', 'form', false, 'array', 'color=blue,black,brown'],
  ['cookie', 'form', false, 'object', 'color=R,100,G,200,B,150'],
  ['cookie', 'form', true, 'string', 'color=blue'],
  ['cookie', 'form', true, 'array', 'color=blue; color=black; color=brown'],
  ['cookie', 'form', true, 'object', 'R=100; G=200; B=150'],
];

/** The empty column: a value that is there but empty. */
const EMPTY: [Location, string, boolean, Kind, string, unknown][] = [
  ['path', 'matrix', false, 'string', ';color', ''],
  ['path', 'matrix', true, 'array', ';color', []],
  ['path', 'label', false, 'string', '.', ''],
  ['path', 'label', true, 'array', '.', []],
  ['query', 'form', false, 'string', 'color=', ''],
  ['query', 'form', false, 'array', 'color=', []],
  ['query', 'form', true, 'array', 'color=', []],
];

const echo: HttpHandler = (req) => ({
  status: 200,
  body: { params: req.params, query: req.query, headers: req.headers, cookies: req.cookies },
});
const keys = [...TABLE, ...EMPTY].map(([l, s, e, k]) => `${l}_${s}_${e}_${k}`);
const routes = [...new Set(keys)].map((key) => {
  const [l, s, e, k] = key.split('_') as [Location, string, string, Kind];
  return routeOf(l, s, e === 'true', k);
});

/** A free-form exploded object beside a plain parameter: every query parameter is listed, as the generator does. */
const freeForm: RouteDefinition = {
  ...open,
  operationId: 'freeForm',
  method: 'GET',
  path: '/free-form',
  validators: {
    query: validator('FreeFormQuery', {
      type: 'object',
      additionalProperties: false,
      properties: { limit: { type: 'string' }, filter: { type: 'object', additionalProperties: { type: 'string' } } },
    }),
  },
  parameters: {
    query: {
      limit: { style: 'form', explode: true, shape: { type: 'string' } },
      filter: { style: 'form', explode: true, shape: { properties: {} } },
    },
  },
  responses: { '200': {} },
};

/** A deep object whose members may nest (`filter[a][b]=1`). */
const nested: RouteDefinition = {
  ...open,
  operationId: 'nested',
  method: 'GET',
  path: '/nested',
  validators: { query: validator('NestedQuery', { type: 'object', properties: { filter: { type: 'object' } } }) },
  parameters: { query: { filter: { style: 'deepObject', explode: true, shape: { properties: { n: 'integer' } } } } },
  responses: { '200': {} },
};

/** A deep object whose nested members are declared: an object of numbers and an array of integers. */
const declaredNested: RouteDefinition = {
  ...nested,
  operationId: 'declaredNested',
  path: '/declared-nested',
  parameters: {
    query: {
      filter: {
        style: 'deepObject',
        explode: true,
        shape: {
          properties: { n: 'integer', range: 'string', ids: 'string' },
          members: { range: { properties: { min: 'number', open: 'boolean' } }, ids: { items: 'integer' } },
        },
      },
    },
  },
};

let server: MediaServer;
beforeAll(async () => {
  const all = [...routes, freeForm, nested, declaredNested];
  server = await serve(all, Object.fromEntries(all.map((r) => [r.operationId, echo])));
});
afterAll(() => server.close());

/** The decoded `color` out of an echoed request. */
function colorOf(echoed: unknown, location: Location): unknown {
  const parts = echoed as Record<'params' | 'query' | 'headers' | 'cookies', Record<string, unknown>>;
  return parts[PART[location]][location === 'header' ? 'x-color' : 'color'];
}

describe('parameter styles of the OpenAPI examples table', () => {
  it.each(TABLE)('%s %s explode=%s: %s from %s', async (location, style, explode, kind, text) => {
    expect(colorOf(await roundTrip(location, style, explode, kind, text), location)).toEqual(VALUES[kind]);
  });

  it.each(EMPTY)('%s %s explode=%s: empty %s from %s', async (location, style, explode, kind, text, value) => {
    expect(colorOf(await roundTrip(location, style, explode, kind, text), location)).toEqual(value);
  });

  it('gathers exploded and deep object members under the parameter, leaving no stray query names', async () => {
    const echoed = (await roundTrip('query', 'deepObject', true, 'object', 'color[R]=1&color[G]=2&color[B]=3')) as {
      query: Record<string, unknown>;
    };
    expect(echoed.query).toEqual({ color: { R: 1, G: 2, B: 3 } });
  });
});

describe('an exploded object without declared members', () => {
  it('takes every query name that is no other parameter', async () => {
    const answer = await send(server.url, '/free-form?limit=5&status=open&owner=me');
    expect((answer.json() as { query: unknown }).query).toEqual({
      limit: '5',
      filter: { status: 'open', owner: 'me' },
    });
  });
});

describe('deep objects', () => {
  it('reads members whose brackets a client percent-encoded', async () => {
    const text = 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150';
    expect(colorOf(await roundTrip('query', 'deepObject', true, 'object', text), 'query')).toEqual(VALUES.object);
  });

  it('nests members named with more brackets, coercing the declared top-level ones', async () => {
    const answer = await send(server.url, '/nested?filter[n]=1&filter[x][y]=a%5Bb%5D&filter[x][z]=%2C');
    expect((answer.json() as { query: unknown }).query).toEqual({ filter: { n: 1, x: { y: 'a[b]', z: ',' } } });
  });
});

describe('a deep object with declared nested members', () => {
  it('coerces nested members as declared and gathers an array member from its repeated key', async () => {
    const query = 'filter[n]=2&filter[range][min]=1.5&filter[range][open]=true&filter[ids]=7&filter[ids]=8&filter[x]=9';
    const answer = await send(server.url, `/declared-nested?${query}`);
    expect((answer.json() as { query: unknown }).query).toEqual({
      filter: { n: 2, range: { min: 1.5, open: true }, ids: [7, 8], x: '9' },
    });
  });
});

describe('decoded parameters that break their schema', () => {
  it('refuse a query member that is no integer with 400 naming the member', async () => {
    const answer = await send(server.url, '/query/deepObject/true/object?color[R]=x&color[G]=2&color[B]=3');
    expect(answer.status).toBe(400);
    const body = answer.json() as { code: string; message: string; data: unknown };
    expect(body.code).toBe('invalid_request');
    expect(body.data).toEqual([{ in: 'query', pointer: '/color/R', message: 'must be integer' }]);
  });

  it('refuse a header object with a missing member with 400 naming the header', async () => {
    const answer = await send(server.url, '/header/simple/true/object', { headers: { 'x-color': 'R=1,G=2' } });
    expect(answer.status).toBe(400);
    expect((answer.json() as { data: unknown }).data).toEqual([
      { in: 'header', pointer: '/x-color/B', message: "must have required property 'B'" },
    ]);
  });

  it('refuse a cookie that is no integer with 400 naming the cookie', async () => {
    const answer = await send(server.url, '/cookie/form/true/object', { headers: { cookie: 'R=1; G=green; B=3' } });
    expect(answer.status).toBe(400);
    const body = answer.json() as { message: string; data: unknown };
    expect(body.data).toEqual([{ in: 'cookie', pointer: '/color/G', message: 'must be integer' }]);
    expect(body.message).toBe('Invalid cookie color/G: must be integer.');
  });

  it('answer 404 for a path whose label value does not start with a dot', async () => {
    const answer = await send(server.url, '/path/label/true/object/R=1.G=2.B=3');
    expect(answer.status).toBe(404);
    expect((answer.json() as { code: string }).code).toBe('not_found');
  });
});
