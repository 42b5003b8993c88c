/** Request bodies of every media kind, as a real loopback server receives them (the wire contract's encodings). */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import { CasiError } from '../../templates/client/errors.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';

interface Received {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly bytes: Buffer;
}

let server: TestServer;
const received: Received[] = [];
/** How many requests fail with a 503 before one succeeds. */
let failures = 0;

beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ method: req.method ?? '', headers: req.headers, bytes: Buffer.concat(chunks) });
    if (failures > 0) {
      failures--;
      sendJson(res, 503, { message: 'busy' }, { 'retry-after': '0' });
    } else sendJson(res, 200, { ok: true });
  });
});
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: a core over an untyped API, to send bodies of any media type.
const core = () => createCore<any>({ baseUrl: server.url, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
const last = () => received.at(-1) as Received;

/** The parts of the last multipart body, read with the web platform's own parser (as the server side does). */
async function lastParts(): Promise<FormData> {
  const { bytes, headers } = last();
  return new Response(new Uint8Array(bytes), {
    headers: { 'content-type': String(headers['content-type']) },
  }).formData();
}

describe('request bodies', () => {
  it('sends JSON as JSON text with its content type', async () => {
    await core().request('post', '/json', { body: { a: [1, 'x'] } });
    expect(last().bytes.toString()).toBe('{"a":[1,"x"]}');
    expect(last().headers['content-type']).toBe('application/json');
  });

  it('sends a +json media type as JSON text with that content type', async () => {
    await core().request('post', '/json', { body: { a: 1 }, contentType: 'application/merge-patch+json' });
    expect(last().bytes.toString()).toBe('{"a":1}');
    expect(last().headers['content-type']).toBe('application/merge-patch+json');
  });

  it('sends a form as pairs in member order: arrays repeated, objects as JSON, undefined and null left out', async () => {
    await core().request('post', '/form', {
      contentType: 'application/x-www-form-urlencoded',
      body: {
        name: 'a b&c',
        count: 3,
        ok: false,
        tags: ['x', 'y'],
        meta: { k: 'v' },
        rows: [{ n: 1 }],
        gone: undefined,
        none: null,
      },
    });
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    const text = last().bytes.toString();
    expect([...new URLSearchParams(text)]).toEqual([
      ['name', 'a b&c'],
      ['count', '3'],
      ['ok', 'false'],
      ['tags', 'x'],
      ['tags', 'y'],
      ['meta', '{"k":"v"}'],
      ['rows', '[{"n":1}]'],
    ]);
    expect(text.startsWith('name=a+b%26c&count=3&ok=false&tags=x&tags=y&meta=')).toBe(true);
  });

  it('sends multipart form data: Blobs as file parts, the rest as text parts, with fetch’s boundary', async () => {
    const file = new File([new Uint8Array([0, 1, 2, 255])], 'photo.png', { type: 'image/png' });
    await core().request('post', '/multipart', {
      contentType: 'multipart/form-data',
      body: { title: 'Sunset', size: 4, public: true, tags: ['a', 'b'], meta: { k: 1 }, file, gone: undefined },
    });
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await lastParts();
    expect(parts.get('title')).toBe('Sunset');
    expect(parts.get('size')).toBe('4');
    expect(parts.get('public')).toBe('true');
    expect(parts.getAll('tags')).toEqual(['a', 'b']);
    expect(parts.get('meta')).toBe('{"k":1}');
    expect(parts.has('gone')).toBe(false);
    const sent = parts.get('file') as File;
    expect(sent).toBeInstanceOf(Blob);
    expect(sent.name).toBe('photo.png');
    expect(sent.type).toBe('image/png');
    expect([...new Uint8Array(await sent.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    expect(last().bytes.includes('Content-Disposition: form-data; name="file"; filename="photo.png"')).toBe(true);
  });

  it('sends text as it is, with its content type', async () => {
    await core().request('put', '/text', { contentType: 'text/plain', body: 'héllo\nwörld' });
    expect(last().bytes.toString('utf8')).toBe('héllo\nwörld');
    expect(last().headers['content-type']).toBe('text/plain');
  });

  it.each([
    ['a Blob', () => new Blob([new Uint8Array([1, 2, 3])])],
    ['an ArrayBuffer', () => new Uint8Array([1, 2, 3]).buffer],
    ['a typed array', () => new Uint8Array([1, 2, 3])],
    ['a Buffer', () => Buffer.from([1, 2, 3])],
    ['a string', () => '\u0001\u0002\u0003'],
  ])('sends bytes given as %s as they are, with the declared content type', async (_, body) => {
    await core().request('put', '/bytes', { contentType: 'application/octet-stream', body: body() });
    expect([...last().bytes]).toEqual([1, 2, 3]);
    expect(last().headers['content-type']).toBe('application/octet-stream');
  });

  it('sends a ReadableStream of bytes as it is read', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
        controller.enqueue(new Uint8Array([3]));
        controller.close();
      },
    });
    await core().request('put', '/bytes', { contentType: 'image/png', body: stream });
    expect([...last().bytes]).toEqual([1, 2, 3]);
    expect(last().headers['content-type']).toBe('image/png');
  });

  it('sends a form, a multipart body and bytes again on a retried attempt', async () => {
    const count = received.length;
    failures = 1;
    await core().request('put', '/form', { contentType: 'application/x-www-form-urlencoded', body: { a: 1 } });
    failures = 1;
    await core().request('put', '/multipart', {
      contentType: 'multipart/form-data',
      body: { file: new Blob(['xyz']) },
    });
    failures = 1;
    await core().request('put', '/bytes', { contentType: 'application/octet-stream', body: new Blob(['xyz']) });
    const sent = received.slice(count);
    expect(sent).toHaveLength(6);
    expect(sent[0]?.bytes.toString()).toBe('a=1');
    expect(sent[1]?.bytes.toString()).toBe('a=1');
    expect(sent[3]?.bytes.includes('xyz')).toBe(true);
    expect(sent[5]?.bytes.toString()).toBe('xyz');
  });

  it('does not retry a stream body, which cannot be sent twice', async () => {
    const count = received.length;
    failures = 1;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.close();
      },
    });
    const error = await core()
      .request('put', '/bytes', { contentType: 'application/octet-stream', body: stream })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(received.length - count).toBe(1);
    failures = 0;
  });

  it.each([
    ['application/x-www-form-urlencoded', 'text', /application\/x-www-form-urlencoded request body must be an object/],
    ['text/plain', { a: 1 }, /text\/plain request body must be a string/],
    ['application/octet-stream', { a: 1 }, /application\/octet-stream request body must be a Blob/],
  ])('refuses a %s body of the wrong kind before sending it', async (contentType, body, message) => {
    const count = received.length;
    const error = await core()
      .request('post', '/x', { contentType, body })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CasiError);
    expect((error as Error).message).toMatch(message);
    expect(received.length).toBe(count);
  });
});
