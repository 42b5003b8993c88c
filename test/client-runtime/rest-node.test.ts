/** The Node REST transport (`rest-node.ts`) against real loopback servers: choice, redirects, bodies, limits. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError } from '../../templates/client/errors.js';
import { readBody, sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { paths } from './helpers/paths.js';

const servers: TestServer[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Seen = { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };

/** A server running `handler`, recording every request it gets, and the connections it accepted. */
async function start(handler: Parameters<typeof startHttpServer>[0]) {
  const seen: Seen[] = [];
  let connections = 0;
  const server = await startHttpServer(async (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: await readBody(req) });
    await handler(req, res);
  });
  server.server.on('connection', () => connections++);
  servers.push(server);
  return { server, seen, connections: () => connections };
}

const coreFor = (server: TestServer, timeoutMs?: number) =>
  createCore<paths>({ baseUrl: server.url, apiKey: 'sk_node', serviceVersion: '2025-06-19', maxRetries: 0, timeoutMs });

const item = { id: 'it_1', name: 'one' };
const get = (core: ReturnType<typeof coreFor>, init: object = {}) =>
  core.request('get', '/items/{item_id}', { params: { path: { item_id: 'it_1' } }, ...init });

describe('the Node REST transport', () => {
  it('carries calls without fetch, on one kept-alive connection; a call with other RequestInit members uses fetch', async () => {
    const { server, seen, connections } = await start((_req, res) => sendJson(res, 200, item));
    const realFetch = globalThis.fetch;
    const fetched: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      fetched.push(String(input));
      return realFetch(input, init);
    });
    const core = coreFor(server);
    await expect(get(core)).resolves.toEqual(item);
    await expect(get(core)).resolves.toEqual(item);
    expect(fetched).toEqual([]);
    expect(connections()).toBe(1);
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer sk_node', 'Bearer sk_node']);
    await expect(get(core, { cache: 'no-store' })).resolves.toEqual(item);
    expect(fetched).toEqual([`${server.url}/items/it_1`]);
  });

  it('follows redirects as fetch does: 307 sends the body again, a POST answered 301 or 303 becomes a GET', async () => {
    const { server, seen } = await start((req, res) => {
      const status = Number(req.headers['x-status']);
      if (req.url === '/items') res.writeHead(307, { location: '/items-again' }).end();
      else if (req.url === '/items-again') res.writeHead(status, { location: '/landed' }).end();
      else sendJson(res, 200, item);
    });
    for (const status of ['301', '303']) {
      seen.length = 0;
      const created = coreFor(server).request('post', '/items', {
        body: { name: 'one' },
        headers: { 'x-status': status },
      });
      await expect(created).resolves.toEqual(item);
      expect(seen.map((s) => [s.method, s.url, s.body, s.headers['content-type']])).toEqual([
        ['POST', '/items', '{"name":"one"}', 'application/json'],
        ['POST', '/items-again', '{"name":"one"}', 'application/json'],
        ['GET', '/landed', '', undefined],
      ]);
      expect(seen.every((s) => s.headers.authorization === 'Bearer sk_node')).toBe(true);
    }
  });

  it('drops the credentials when a redirect leaves the origin, and gives up after 20 redirects', async () => {
    const other = await start((_req, res) => sendJson(res, 200, item));
    const { server } = await start((req, res) => {
      res.writeHead(302, { location: req.url === '/items/it_1' ? `${other.server.url}/landed` : '/loop' }).end();
    });
    await expect(get(coreFor(server))).resolves.toEqual(item);
    expect(other.seen.map((s) => [s.url, s.headers.authorization, s.headers['service-version']])).toEqual([
      ['/landed', undefined, '2025-06-19'],
    ]);
    const looping = await start((_req, res) => {
      res.writeHead(307, { location: '/loop' }).end();
    });
    const error = await get(coreFor(looping.server)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(looping.seen).toHaveLength(21);
  });

  it('decodes UTF-8 split across chunks and drops a byte order mark', async () => {
    const text = Buffer.from(`\uFEFF${JSON.stringify({ id: 'it_1', name: 'crème brûlée €' })}`);
    const split = text.indexOf(Buffer.from('€')) + 1;
    const { server } = await start(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(text.subarray(0, split));
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.end(text.subarray(split));
    });
    await expect(get(coreFor(server))).resolves.toEqual({ id: 'it_1', name: 'crème brûlée €' });
  });

  it('times out, aborts and fails while the body is still coming', async () => {
    const { server } = await start((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
      if (req.headers['x-cut'] !== undefined) setTimeout(() => res.destroy(), 20);
    });
    const started = Date.now();
    await expect(get(coreFor(server, 150))).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(get(coreFor(server), { signal: controller.signal })).rejects.toBeInstanceOf(ApiUserAbortError);
    await expect(get(coreFor(server), { headers: { 'x-cut': '1' } })).rejects.toBeInstanceOf(ApiConnectionError);
  });

  it('refuses at once a call whose signal has already aborted', async () => {
    const { server, seen } = await start((_req, res) => sendJson(res, 200, item));
    await expect(get(coreFor(server), { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ApiUserAbortError);
    expect(seen).toEqual([]);
  });
});
