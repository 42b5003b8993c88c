/**
 * Request bodies of each media kind a route may declare, over HTTP: decoded (form fields coerced, multipart files
 * kept as Blobs, text in its charset, bytes as a Buffer), validated against the body schema, refused with a clear
 * 4xx naming the pointer when invalid, and 415 when sent as another media type than the declared one.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler, RouteDefinition } from '../../templates/server/index.js';
import { validator } from './fixture.js';
import { type MediaServer, open, send, serve } from './media-server.js';

const FORM = 'application/x-www-form-urlencoded';

const routes: RouteDefinition[] = [
  {
    ...open,
    operationId: 'form',
    method: 'POST',
    path: '/form',
    bodyRequired: true,
    validators: {
      body: validator('FormBody', {
        type: 'object',
        required: ['name', 'count'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          count: { type: 'integer', minimum: 1 },
          ratio: { type: 'number' },
          flag: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
          sizes: { type: 'array', items: { type: 'integer' } },
          meta: { type: 'object', properties: { k: { type: 'integer' } } },
        },
      }),
    },
    requestMedia: {
      type: FORM,
      kind: 'form',
      fields: {
        count: { type: 'integer' },
        ratio: { type: 'number' },
        flag: { type: 'boolean' },
        tags: { items: 'string' },
        sizes: { items: 'integer' },
        meta: { json: true },
      },
    },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'upload',
    method: 'POST',
    path: '/upload',
    bodyRequired: true,
    validators: {
      body: validator('UploadBody', {
        type: 'object',
        required: ['file', 'title'],
        properties: {
          file: { type: 'string', contentMediaType: 'application/pdf' },
          title: { type: 'string' },
          pages: { type: 'integer' },
          labels: { type: 'array', items: { type: 'string' } },
          meta: { type: 'object', required: ['lang'], properties: { lang: { type: 'string' } } },
        },
      }),
    },
    requestMedia: {
      type: 'multipart/form-data',
      kind: 'multipart',
      fields: { pages: { type: 'integer' }, labels: { items: 'string' }, meta: { json: true } },
    },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'text',
    method: 'PUT',
    path: '/text',
    bodyRequired: true,
    validators: { body: validator('TextBody', { type: 'string', maxLength: 12 }) },
    requestMedia: { type: 'text/plain', kind: 'text' },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'xml',
    method: 'POST',
    path: '/xml',
    validators: {},
    requestMedia: { type: 'application/xml', kind: 'text' },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'bytes',
    method: 'POST',
    path: '/bytes',
    bodyRequired: true,
    validators: {},
    requestMedia: { type: 'application/octet-stream', kind: 'binary' },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'image',
    method: 'PUT',
    path: '/image',
    validators: {},
    requestMedia: { type: 'image/*', kind: 'binary' },
    responses: { '200': {} },
  },
  {
    ...open,
    operationId: 'json',
    method: 'POST',
    path: '/json',
    validators: { body: validator('JsonBody', { type: 'object', properties: { a: { type: 'integer' } } }) },
    responses: { '200': {} },
  },
];

/** Echoes the decoded body; Blobs as their name, type, size and text, Buffers as their length and SHA-256. */
const echo: HttpHandler = async (req) => ({ status: 200, body: { body: await described(req.body) } });

async function described(value: unknown): Promise<unknown> {
  if (Buffer.isBuffer(value)) return { buffer: value.length, sha256: createHash('sha256').update(value).digest('hex') };
  if (value instanceof Blob) {
    const name = value instanceof File ? value.name : undefined;
    return { blob: { name, type: value.type, size: value.size, text: await value.text() } };
  }
  if (Array.isArray(value)) return Promise.all(value.map(described));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) out[key] = await described(member);
    return out;
  }
  return value;
}

let server: MediaServer;
beforeAll(async () => {
  server = await serve(routes, Object.fromEntries(routes.map((r) => [r.operationId, echo])));
});
afterAll(() => server.close());

/** An answer's JSON: an `Error` or the echo of the decoded body. */
interface Echoed {
  readonly body: unknown;
  readonly code?: string;
  readonly message?: string;
  readonly data?: unknown;
}

async function post(path: string, body: BodyInit, contentType?: string, method = 'POST') {
  const response = await fetch(`${server.url}${path}`, {
    method,
    body,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    json: (await response.json()) as Echoed,
  };
}

describe('form bodies', () => {
  it('are decoded by field shape: primitives coerced, repeated names as arrays, objects from JSON', async () => {
    const text = 'name=a+b&count=3&ratio=0.5&flag=true&tags=x&tags=y&sizes=7&meta=%7B%22k%22%3A1%7D';
    const answer = await post('/form', text, FORM);
    expect(answer.status).toBe(200);
    expect(answer.json.body).toEqual({
      name: 'a b',
      count: 3,
      ratio: 0.5,
      flag: true,
      tags: ['x', 'y'],
      sizes: [7],
      meta: { k: 1 },
    });
  });

  it('are refused with 400 naming each invalid field by pointer', async () => {
    const answer = await post('/form', 'name=a&count=zero&sizes=1&sizes=two&extra=1', `${FORM}; charset=utf-8`);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('invalid_request');
    expect(answer.json.data).toEqual(
      expect.arrayContaining([
        { in: 'body', pointer: '/count', message: 'must be integer' },
        { in: 'body', pointer: '/sizes/1', message: 'must be integer' },
        { in: 'body', pointer: '/extra', message: 'must NOT have additional properties' },
      ]),
    );
  });

  it('refuse a JSON field with a member that could change a prototype, naming it under the field', async () => {
    const meta = encodeURIComponent('{"k":1,"__proto__":{"polluted":true}}');
    const answer = await post('/form', `name=a&count=1&meta=${meta}`, FORM);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe(
      'The member at /meta/__proto__ must not be named __proto__, nor be constructor.prototype.',
    );
    expect(answer.json.data).toEqual([
      { in: 'body', pointer: '/meta/__proto__', message: 'must not be named __proto__, nor be constructor.prototype' },
    ]);
  });

  it('refuse a JSON field nested deeper than the body limit before validating it', async () => {
    const meta = encodeURIComponent(`${'['.repeat(70)}${']'.repeat(70)}`);
    const answer = await post('/form', `name=a&count=1&meta=${meta}`, FORM);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/^Invalid body at \/meta(\/0)+: must not nest deeper than 64 levels\.$/);
  });

  it('are refused with 415 naming the declared media type when sent as JSON', async () => {
    const answer = await post('/form', '{"name":"a","count":1}', 'application/json');
    expect(answer.status).toBe(415);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual({
      code: 'unsupported_media_type',
      transient: false,
      message: `The body must be ${FORM}, not sent as application/json.`,
      data: [{ in: 'header', pointer: '/content-type', message: `must be ${FORM}` }],
    });
  });
});

describe('multipart bodies', () => {
  it('keep file parts as Blobs and decode text parts like form fields', async () => {
    const form = new FormData();
    form.append('title', 'Report');
    form.append('pages', '12');
    form.append('labels', 'a');
    form.append('labels', 'b');
    form.append('meta', JSON.stringify({ lang: 'en' }));
    form.append('file', new File(['%PDF-1.7 bytes'], 'report.pdf', { type: 'application/pdf' }));
    const answer = await post('/upload', form);
    expect(answer.status).toBe(200);
    expect(answer.json.body).toEqual({
      title: 'Report',
      pages: 12,
      labels: ['a', 'b'],
      meta: { lang: 'en' },
      file: { blob: { name: 'report.pdf', type: 'application/pdf', size: 14, text: '%PDF-1.7 bytes' } },
    });
  });

  it('are refused with 400 naming a missing file and a text part that breaks its schema', async () => {
    const form = new FormData();
    form.append('title', 'Report');
    form.append('meta', '{"lang":1}');
    const answer = await post('/upload', form);
    expect(answer.status).toBe(400);
    expect(answer.json.data).toEqual(
      expect.arrayContaining([
        { in: 'body', pointer: '/file', message: "must have required property 'file'" },
        { in: 'body', pointer: '/meta/lang', message: 'must be string' },
      ]),
    );
  });

  it('are refused with 400 when the bytes do not match the boundary of the content-type', async () => {
    const answer = await post('/upload', 'not multipart at all', 'multipart/form-data; boundary=xyz');
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('invalid_request');
    expect(answer.json.data).toEqual([
      { in: 'body', pointer: '', message: 'must be multipart/form-data with the boundary of content-type' },
    ]);
  });
});

describe('text bodies', () => {
  it('arrive as a string, validated against a schema with a type', async () => {
    expect((await post('/text', 'hello', 'text/plain', 'PUT')).json.body).toBe('hello');
    const long = await post('/text', 'far more than twelve', 'text/plain', 'PUT');
    expect(long.status).toBe(400);
    expect(long.json.data).toEqual([{ in: 'body', pointer: '', message: 'must NOT have more than 12 characters' }]);
  });

  it('are read in the charset the content-type names', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    const answer = await send(server.url, '/text', {
      method: 'PUT',
      headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
      body: latin1,
    });
    expect((answer.json() as { body: string }).body).toBe('café');
  });

  it('take XML as text', async () => {
    const xml = '<pet><name>Rex</name></pet>';
    expect((await post('/xml', xml, 'application/xml')).json.body).toBe(xml);
  });

  it('are required when the route says so, naming the media type', async () => {
    const answer = await send(server.url, '/text', { method: 'PUT' });
    expect(answer.status).toBe(400);
    expect((answer.json() as { message: string }).message).toBe('Invalid body: a text/plain body is required.');
  });
});

describe('byte bodies', () => {
  it('arrive as a Buffer with every byte', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));
    const answer = await post('/bytes', bytes, 'application/octet-stream');
    expect(answer.json.body).toEqual({ buffer: 1000, sha256: createHash('sha256').update(bytes).digest('hex') });
  });

  it('take any type a declared wildcard covers, and refuse others with 415', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    expect((await post('/image', png, 'image/png', 'PUT')).json.body).toMatchObject({ buffer: 4 });
    const wrong = await post('/image', 'text', 'text/plain', 'PUT');
    expect(wrong.status).toBe(415);
    expect(wrong.json.data).toEqual([{ in: 'header', pointer: '/content-type', message: 'must be image/*' }]);
  });
});

describe('JSON routes beside them', () => {
  it('keep the 400 "must be application/json" for another media type', async () => {
    const answer = await post('/json', 'a=1', FORM);
    expect(answer.status).toBe(400);
    expect(answer.json.data).toEqual([{ in: 'header', pointer: '/content-type', message: 'must be application/json' }]);
  });

  it('still parse and validate JSON', async () => {
    expect((await post('/json', '{"a":2}', 'application/json')).json.body).toEqual({ a: 2 });
    expect((await post('/json', '{"a":"x"}', 'application/json')).status).toBe(400);
  });
});
