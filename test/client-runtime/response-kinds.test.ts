/**
 * Success answers read as the operation's media type says (JSON, text, a Blob, event-stream items) from a real
 * loopback server, with errors, retries, timeouts and aborts working for each.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import {
  ApiConnectionError,
  ApiTimeoutError,
  ApiUserAbortError,
  BadRequestError,
  CasiError,
} from '../../templates/client/errors.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { Item, paths } from './helpers/paths.js';

let server: TestServer;
let requests = 0;
/** Responses held open by a route that never ends its body, closed by the server's `close()`. */
const open = new Set<ServerResponse>();
/** How many `/flaky` requests fail with a 503 before one succeeds. */
let failures = 0;

function sse(res: ServerResponse, events: readonly string[], end = true) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events) res.write(event);
  if (end) res.end();
  else open.add(res);
}

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    requests++;
    switch (req.url) {
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('héllo wörld');
        return;
      case '/blob':
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71, 0, 255]));
        return;
      case '/slow-blob':
        // Headers at once, the body never: the timeout covers a Blob's body.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(Buffer.from([1]));
        open.add(res);
        return;
      case '/events':
        sse(res, [
          'data: {"n":1}\n\n',
          'event: delta\nid: 2\ndata: {"n":\ndata: 2}\n\n',
          ': a comment\n\n',
          'data: plain words\n\n',
          'data: [DONE]\n\n',
          'data: {"n":"after the end"}\n\n',
        ]);
        return;
      case '/events-end':
        sse(res, ['data: 1\n\n', 'data: "two"\n\n']);
        return;
      case '/events-empty':
        sse(res, ['data: 1\n\n', 'event: ping\n\n', 'data:\n\n', 'data: 2\n\n']);
        return;
      case '/events-split': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // One event cut inside a multi-byte character and across writes.
        const bytes = Buffer.from('data: {"word":"wörld"}\n\n');
        const cut = bytes.indexOf(Buffer.from('ö')) + 1;
        res.write(bytes.subarray(0, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 20);
        return;
      }
      case '/events-open':
        sse(res, ['data: {"n":1}\n\n'], false);
        return;
      case '/events-broken':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n', () => setTimeout(() => res.destroy(), 20));
        return;
      case '/not-events':
        sendJson(res, 200, { n: 1 });
        return;
      case '/slow-headers':
        setTimeout(() => sse(res, ['data: 1\n\n']), 300);
        return;
      case '/flaky':
        if (failures > 0) {
          failures--;
          sendJson(res, 503, { message: 'busy' }, { 'retry-after': '0' });
        } else sse(res, ['data: "ok"\n\n']);
        return;
      case '/error-json':
        sendJson(res, 400, { code: 'invalid', transient: false, message: 'Bad.' });
        return;
      case '/error-text':
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad words.');
        return;
      default:
        sendJson(res, 200, { n: 1 });
    }
  });
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await server.close();
});

// biome-ignore lint/suspicious/noExplicitAny: a core over an untyped API, to read answers of any media type.
const core = (timeoutMs?: number) => createCore<any>({ baseUrl: server.url, timeoutMs, retry: { baseDelayMs: 1 } });

async function collect(items: AsyncIterable<unknown>, limit = 20): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

describe('success answers', () => {
  it('types the result by readAs', () => {
    const typed = createCore<paths>({ baseUrl: server.url });
    const params = { path: { item_id: 'it_1' } };
    expectTypeOf(() => typed.request('get', '/items/{item_id}', { params })).returns.resolves.toEqualTypeOf<Item>();
    expectTypeOf(() =>
      typed.request('get', '/items/{item_id}', { params, readAs: 'text' }),
    ).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf(() =>
      typed.request('get', '/items/{item_id}', { params, readAs: 'blob' }),
    ).returns.resolves.toEqualTypeOf<Blob>();
    expectTypeOf(() =>
      typed.request('get', '/items/{item_id}', { params, readAs: 'event-stream' }),
    ).returns.resolves.toEqualTypeOf<AsyncIterable<unknown>>();
  });

  it('reads JSON by default', async () => {
    expect(await core().request('get', '/json', {})).toEqual({ n: 1 });
  });

  it('reads text as a string', async () => {
    const text: string = await core().request('get', '/text', { readAs: 'text' });
    expect(text).toBe('héllo wörld');
  });

  it('reads bytes as a Blob with the answer’s type', async () => {
    const blob: Blob = await core().request('get', '/blob', { readAs: 'blob' });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([137, 80, 78, 71, 0, 255]);
  });

  it('reads an event stream as items: JSON data parsed, other data as strings, until [DONE]', async () => {
    const items = await core().request('get', '/events', { readAs: 'event-stream' });
    expect(await collect(items)).toEqual([{ n: 1 }, { n: 2 }, 'plain words']);
  });

  it('ends the items when the stream ends', async () => {
    const items = await core().request('get', '/events-end', { readAs: 'event-stream' });
    expect(await collect(items)).toEqual([1, 'two']);
  });

  it('ends the items at an event with empty data', async () => {
    const items = await core().request('get', '/events-empty', { readAs: 'event-stream' });
    expect(await collect(items)).toEqual([1]);
  });

  it('keeps an event whole when it arrives cut inside a character', async () => {
    const items = await core().request('get', '/events-split', { readAs: 'event-stream' });
    expect(await collect(items)).toEqual([{ word: 'wörld' }]);
  });

  it('closes the connection when the reader leaves early', async () => {
    const items = await core().request('get', '/events-open', { readAs: 'event-stream' });
    const closed = new Promise<void>((resolve) => {
      const res = [...open].at(-1);
      res?.on('close', () => resolve());
    });
    expect(await collect(items, 1)).toEqual([{ n: 1 }]);
    await closed;
  });

  it('refuses a success answer that is not an event stream', async () => {
    const error = await core()
      .request('get', '/not-events', { readAs: 'event-stream' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CasiError);
    expect((error as Error).message).toMatch(/Expected a text\/event-stream answer, got application\/json/);
  });

  it('throws ApiConnectionError when the stream breaks', async () => {
    const items = await core().request('get', '/events-broken', { readAs: 'event-stream' });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const item of items) seen.push(item);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 1 }]);
    expect(error).toBeInstanceOf(ApiConnectionError);
  });
});

describe('errors, retries, timeouts and aborts for every kind', () => {
  it.each(['json', 'text', 'blob', 'event-stream'] as const)(
    'reads a JSON error answer when reading %s',
    async (readAs) => {
      const error = await core()
        .request('get', '/error-json', { readAs })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, code: 'invalid', message: 'Bad.' });
    },
  );

  it.each(['json', 'text', 'blob', 'event-stream'] as const)(
    'reads a text error answer when reading %s',
    async (readAs) => {
      const error = await core()
        .request('get', '/error-text', { readAs })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, message: 'Bad words.', data: 'Bad words.' });
    },
  );

  it('retries an event stream answered 503 before it opens', async () => {
    failures = 2;
    const before = requests;
    const items = await core().request('get', '/flaky', { readAs: 'event-stream' });
    expect(await collect(items)).toEqual(['ok']);
    expect(requests - before).toBe(3);
  });

  it('times out a Blob whose body does not arrive in time', async () => {
    const error = await core(200)
      .request('get', '/slow-blob', { readAs: 'blob', maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('times out an event stream whose headers do not arrive in time', async () => {
    const error = await core(100)
      .request('get', '/slow-headers', { readAs: 'event-stream', maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('keeps an open event stream past the timeout, which covers only its headers', async () => {
    const controller = new AbortController();
    const items = await core(100).request('get', '/events-open', { readAs: 'event-stream', signal: controller.signal });
    const iterator = items[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { n: 1 } });
    const next = iterator.next();
    const waited = await Promise.race([
      next.then(
        () => 'item',
        () => 'failed',
      ),
      new Promise((r) => setTimeout(() => r('open'), 300)),
    ]);
    expect(waited).toBe('open');
    controller.abort();
    await expect(next).rejects.toBeInstanceOf(ApiUserAbortError);
  });

  it('ends an open event stream with ApiUserAbortError when the caller aborts', async () => {
    const controller = new AbortController();
    const items = await core().request('get', '/events-open', { readAs: 'event-stream', signal: controller.signal });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const item of items) {
        seen.push(item);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 1 }]);
    expect(error).toBeInstanceOf(ApiUserAbortError);
  });
});
