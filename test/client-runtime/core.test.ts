/** createCore against a real loopback server: headers, percent-encoding, data or errors, raw client, types. */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import { CasiError, NotFoundError } from '../../templates/client/errors.js';
import { readBody, sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { Item, paths } from './helpers/paths.js';

let server: TestServer;
const seen: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ url: req.url ?? '', headers: req.headers, body });
    if (req.url?.startsWith('/items/missing')) {
      sendJson(res, 404, { code: 'not_found', transient: false, message: 'No item missing.', data: { id: 'missing' } });
    } else if (req.method === 'DELETE') {
      res.writeHead(204).end();
    } else if (req.method === 'POST') {
      sendJson(res, 200, { id: 'it_new', name: (JSON.parse(body) as { name: string }).name });
    } else {
      sendJson(res, 200, { id: 'it_1', name: 'one' });
    }
  });
});
afterAll(() => server.close());

describe('createCore', () => {
  const core = (apiKey?: string) =>
    createCore<paths>({
      baseUrl: server.url,
      apiKey,
      serviceVersion: '2025-06-19',
      defaultHeaders: { 'x-team': 'blue' },
    });

  it('sends the API key, the version and the default headers, and returns the data', async () => {
    const item = await core('sk_test').request('get', '/items/{item_id}', { params: { path: { item_id: 'it_1' } } });
    expect(item).toEqual({ id: 'it_1', name: 'one' });
    const last = seen.at(-1);
    expect(last?.headers.authorization).toBe('Bearer sk_test');
    expect(last?.headers['service-version']).toBe('2025-06-19');
    expect(last?.headers['x-team']).toBe('blue');
  });

  it('sends no Authorization header without an API key', async () => {
    await core().request('get', '/items/{item_id}', { params: { path: { item_id: 'it_1' } } });
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('percent-encodes path parameters', async () => {
    await core('k').request('get', '/items/{item_id}', { params: { path: { item_id: 'ca_1@v2/../x y?#%' } } });
    expect(seen.at(-1)?.url).toBe('/items/ca_1%40v2%2F..%2Fx%20y%3F%23%25');
  });

  it('encodes an escaped dot as data, not as a dot segment', async () => {
    await core('k').request('get', '/items/{item_id}', { params: { path: { item_id: '%2e%2E' } } });
    expect(seen.at(-1)?.url).toBe('/items/%252e%252E');
  });

  it.each(['.', '..'])('refuses the path parameter %j (path traversal)', async (id) => {
    const count = seen.length;
    await expect(core('k').request('get', '/items/{item_id}', { params: { path: { item_id: id } } })).rejects.toThrow(
      CasiError,
    );
    expect(seen.length).toBe(count);
  });

  it('sends the JSON body', async () => {
    const item = await core('k').request('post', '/items', { body: { name: 'new' } });
    expect(item).toEqual({ id: 'it_new', name: 'new' });
    expect(seen.at(-1)?.body).toBe('{"name":"new"}');
    expect(seen.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('returns undefined for a 204', async () => {
    const result = await core('k').request('delete', '/items/{item_id}', { params: { path: { item_id: 'it_1' } } });
    expect(result).toBeUndefined();
  });

  it('throws the error class of the status with the body fields', async () => {
    const error = await core('k')
      .request('get', '/items/{item_id}', { params: { path: { item_id: 'missing' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', transient: false, data: { id: 'missing' } });
  });

  it('exposes the raw openapi-fetch client with the same middleware', async () => {
    const { data, error, response } = await core('sk_raw').raw.GET('/items/{item_id}', {
      params: { path: { item_id: 'missing' } },
    });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: 'not_found' });
    expect(response.status).toBe(404);
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer sk_raw');
  });

  it('loads the raw client on its first call, with middleware registered before and none ejected', async () => {
    const raw = core('sk_raw').raw;
    const marks: string[] = [];
    const kept = { onRequest: ({ request }: { request: Request }) => void marks.push(`kept ${request.method}`) };
    const ejected = { onRequest: () => void marks.push('ejected') };
    raw.use(kept, ejected);
    raw.eject(ejected);
    const { data } = await raw.GET('/items/{item_id}', { params: { path: { item_id: 'it_1' } } });
    expect(data).toEqual({ id: 'it_1', name: 'one' });
    raw.eject(kept);
    await raw.GET('/items/{item_id}', { params: { path: { item_id: 'it_1' } } });
    expect(marks).toEqual(['kept GET']);
  });

  it('refuses a raw path parameter that would become a dot segment', async () => {
    await expect(core('sk_raw').raw.GET('/items/{item_id}', { params: { path: { item_id: '..' } } })).rejects.toThrow(
      'Path parameter item_id = ".." would change the path.',
    );
  });

  it('lets per-call headers replace default ones whatever their case, and drops a header set to null', async () => {
    await core('k').request('get', '/items/{item_id}', {
      params: { path: { item_id: 'it_1' } },
      headers: { 'X-TEAM': 'red', 'service-version': '2024-01-01', Authorization: null },
    });
    const last = seen.at(-1);
    expect(last?.headers['x-team']).toBe('red');
    expect(last?.headers['service-version']).toBe('2024-01-01');
    expect(last?.headers.authorization).toBeUndefined();
  });

  it('calls a given fetch once per call, as the global one is called: the URL and an init', async () => {
    const calls: { input: unknown; init: RequestInit | undefined }[] = [];
    const withFetch = createCore<paths>({
      baseUrl: server.url,
      apiKey: 'sk_own',
      serviceVersion: '2025-06-19',
      fetch: (input, init) => {
        calls.push({ input, init });
        return fetch(input, init);
      },
    });
    expect(await withFetch.request('post', '/items', { body: { name: 'own' } })).toEqual({ id: 'it_new', name: 'own' });
    expect(calls).toHaveLength(1);
    const [{ input, init } = { input: undefined, init: undefined }] = calls;
    expect(input).toBe(`${server.url}/items`);
    expect(init?.method).toBe('POST');
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBe('Bearer sk_own');
    expect(headers.get('content-type')).toBe('application/json');
    expect(init?.body).toBe('{"name":"own"}');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(seen.at(-1)?.body).toBe('{"name":"own"}');
  });

  it('runs without a timer when timeoutMs is Infinity', async () => {
    const item = await core('k').request('get', '/items/{item_id}', {
      params: { path: { item_id: 'it_1' } },
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    expect(item).toEqual({ id: 'it_1', name: 'one' });
  });

  it('builds absolute URLs for streams and sessions', () => {
    const url = core().url('/conversations/{conversation_id}/events', {
      path: { conversation_id: 'conv 1' },
      query: { token: 'a&b' },
    });
    expect(url).toBe(`${server.url}/conversations/conv%201/events?token=a%26b`);
    expect(() => core().url('/conversations/{conversation_id}/events')).toThrow(/conversation_id is missing/);
  });

  it('hands connection defaults to streams and sessions', () => {
    expect(core('k').transport).toMatchObject({
      apiKey: 'k',
      serviceVersion: '2025-06-19',
      headers: { 'Service-Version': '2025-06-19', 'x-team': 'blue' },
    });
  });

  it('infers request and response types from paths', () => {
    const c = core();
    // Functions, never called: a type test sends nothing.
    const retrieve = () => c.request('get', '/items/{item_id}', { params: { path: { item_id: 'x' } } });
    expectTypeOf(retrieve).returns.resolves.toEqualTypeOf<Item>();
    const create = () => c.request('post', '/items', { body: { name: 'x' } });
    expectTypeOf(create).returns.resolves.toEqualTypeOf<Item>();
    // @ts-expect-error the body is required
    void (() => c.request('post', '/items'));
    // @ts-expect-error the path parameter is required
    void (() => c.request('get', '/items/{item_id}', { params: { path: {} } }));
    // @ts-expect-error no such path
    void (() => c.request('get', '/nope'));
    // @ts-expect-error openapi-fetch's own options belong to `raw`
    void (() => c.request('get', '/items/{item_id}', { params: { path: { item_id: 'x' } }, parseAs: 'text' }));
  });
});
