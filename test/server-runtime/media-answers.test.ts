/**
 * Answers in each declared media type over HTTP (text, bytes from every accepted value, an event stream of items),
 * a spec's own HEAD operation beside GET, all eight methods, and response validation of typed text.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler, HttpMethod, HttpResult, RouteDefinition } from '../../templates/server/index.js';
import { validator } from './fixture.js';
import { type MediaServer, open, send, serve } from './media-server.js';

/** A JSON body of any shape (responses are validated in this file). */
const json = { validator: validator('Any', {}) };
const BYTES = Uint8Array.from([0, 1, 2, 253, 254, 255]);

/** Byte answers by `?as=`: each value a handler may return. */
function bytesAs(as: unknown): unknown {
  switch (as) {
    case 'buffer':
      return Buffer.from(BYTES);
    case 'uint8array':
      return BYTES;
    case 'arraybuffer':
      return BYTES.slice().buffer;
    case 'blob':
      return new Blob([BYTES]);
    case 'readable':
      return Readable.from([Buffer.from(BYTES.subarray(0, 3)), Buffer.from(BYTES.subarray(3))]);
    default:
      return 'plain string';
  }
}

async function* items(): AsyncGenerator<unknown> {
  yield { n: 1 };
  yield 'two';
  yield { n: 3, text: 'multi\nline' };
}

const METHODS: HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];

const routes: RouteDefinition[] = [
  {
    ...open,
    operationId: 'readme',
    method: 'GET',
    path: '/readme',
    validators: {},
    responses: { '200': { contentType: 'text/markdown' } },
  },
  {
    ...open,
    operationId: 'file',
    method: 'GET',
    path: '/file',
    validators: {},
    responses: { '200': { contentType: 'image/png' } },
  },
  {
    ...open,
    operationId: 'events',
    method: 'GET',
    path: '/events',
    validators: {},
    responses: {
      '200': {
        contentType: 'text/event-stream',
        validator: validator('Item', { anyOf: [{ type: 'object', required: ['n'] }, { type: 'string' }] }),
      },
    },
  },
  {
    ...open,
    operationId: 'getThing',
    method: 'GET',
    path: '/things/{id}',
    validators: {},
    responses: { '200': json },
  },
  {
    ...open,
    operationId: 'headThing',
    method: 'HEAD',
    path: '/things/{id}',
    validators: {},
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'greeting',
    method: 'GET',
    path: '/greeting',
    validators: {},
    responses: {
      '200': { contentType: 'text/plain', validator: validator('Greeting', { type: 'string', pattern: '^hello' }) },
    },
  },
  ...METHODS.map(
    (method): RouteDefinition => ({
      ...open,
      operationId: `method${method}`,
      method,
      path: '/methods',
      validators: {},
      responses: { '200': json },
    }),
  ),
];

const handlers: Record<string, HttpHandler> = {
  readme: () => ({ status: 200, body: '# Title\n\nÜber text' }),
  file: (req) => ({ status: 200, body: bytesAs((req.query as { as?: string }).as) }),
  events: (req) => {
    const as = (req.query as { as?: string }).as;
    return { status: 200, body: as === 'array' ? [{ n: 1 }, 'two'] : as === 'broken' ? [{ n: 1 }, { m: 2 }] : items() };
  },
  getThing: (req) => ({ status: 200, body: { id: (req.params as { id: string }).id } }),
  headThing: () => ({ status: 200, headers: { 'x-thing': 'exists' } }),
  greeting: (req) => ({ status: 200, body: (req.query as { say?: string }).say ?? 'hello there' }),
  ...Object.fromEntries(
    METHODS.map((method) => [
      `method${method}`,
      (): HttpResult => ({ status: 200, headers: { 'x-method': method }, body: { method } }),
    ]),
  ),
};

let server: MediaServer;
beforeAll(async () => {
  server = await serve(routes, handlers, { validateResponses: true });
});
afterAll(() => server.close());

describe('text answers', () => {
  it('arrive with the declared type and charset=utf-8, as the UTF-8 bytes of the string', async () => {
    const answer = await send(server.url, '/readme');
    expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(answer.body.equals(Buffer.from('# Title\n\nÜber text', 'utf8'))).toBe(true);
  });

  it('are validated where the response schema has a type: an answer breaking it is a 500', async () => {
    expect(String((await send(server.url, '/greeting')).body)).toBe('hello there');
    const bad = await send(server.url, '/greeting?say=bye');
    expect(bad.status).toBe(500);
    expect((bad.json() as { code: string }).code).toBe('internal_error');
  });
});

describe('byte answers', () => {
  it.each(['buffer', 'uint8array', 'arraybuffer', 'blob', 'readable'])(
    'arrive from a %s with the declared type and every byte',
    async (as) => {
      const answer = await send(server.url, `/file?as=${as}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect([...answer.body]).toEqual([...BYTES]);
    },
  );

  it('arrive from a string as its bytes', async () => {
    const answer = await send(server.url, '/file?as=string');
    expect(answer.headers['content-type']).toBe('image/png');
    expect(String(answer.body)).toBe('plain string');
  });
});

describe('event-stream answers of http operations', () => {
  it('write each item of an async iterable as one event, then end', async () => {
    const answer = await send(server.url, '/events');
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(String(answer.body)).toBe('data: {"n":1}\n\ndata: two\n\ndata: {"n":3,"text":"multi\\nline"}\n\n');
  });

  it('are cut after the last valid item when an item breaks the item schema and responses are validated', async () => {
    const answer = await fetch(`${server.url}/events?as=broken`);
    expect(answer.status).toBe(200);
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const read = async (): Promise<void> => {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended cleanly after ${JSON.stringify(text)}`);
      text += Buffer.from(value).toString();
      return read();
    };
    await expect(read()).rejects.toThrow(/terminated/);
    // The valid item was written before the cut; whether its bytes beat the reset to the client is the network's.
    expect(['data: {"n":1}\n\n', '']).toContain(text);
  });

  it('write each item of an array as one event', async () => {
    const answer = await fetch(`${server.url}/events?as=array`);
    expect(await answer.text()).toBe('data: {"n":1}\n\ndata: two\n\n');
  });
});

describe('methods', () => {
  it('a HEAD operation declared beside GET registers and answers with its own handler', async () => {
    const head = await send(server.url, '/things/t1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['x-thing']).toBe('exists');
    expect(head.body.length).toBe(0);
    const get = await send(server.url, '/things/t1');
    expect(get.json()).toEqual({ id: 't1' });
    expect(get.headers['x-thing']).toBeUndefined();
  });

  it.each(METHODS)('%s registers and answers', async (method) => {
    const answer = await send(server.url, '/methods', { method });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-method']).toBe(method);
    if (method !== 'HEAD') expect(answer.json()).toEqual({ method });
  });
});
