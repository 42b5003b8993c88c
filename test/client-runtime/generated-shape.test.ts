/** The seams documented in templates/client/index.ts, wired the way the generator emits them, type-check and run. */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  type CallOptions,
  createCore,
  errorFromResponse,
  type FetchLike,
  openLazySession,
  paginate,
  type SessionCallOptions,
  type StreamCallOptions,
  streamEvents,
} from '../../templates/client/index.js';
import type { Validator } from '../../templates/shared/validation.js';
import { conversationEvents, isEnded, type TestEvent } from './helpers/events.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { Item, paths } from './helpers/paths.js';
import { openSse, sseMessage } from './helpers/sse.js';

type ClientEvent = { id?: string; payload: { type: 'user.message.send'; text: string } };
const acceptClientEvent = Object.assign((_: unknown): _ is ClientEvent => true, {
  errors: null,
  schemaName: 'ClientEvent',
}) as Validator<ClientEvent>;
const events = conversationEvents(4);
let server: TestServer;
const upgrades: IncomingMessage[] = [];
const streamRequests: IncomingMessage[] = [];

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers.upgrade) upgrades.push(req);
    if (url.pathname.endsWith('/events')) {
      streamRequests.push(req);
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    } else if (url.searchParams.has('cursor')) {
      sendJson(res, 200, { data: [{ id: 'it_2', name: 'two' }], cursor: null });
    } else if (req.method === 'GET' && url.pathname === '/items') {
      sendJson(res, 200, { data: [{ id: 'it_1', name: 'one' }], cursor: 'c2' });
    } else {
      sendJson(res, 200, { id: decodeURIComponent(url.pathname.split('/').at(-1) ?? ''), name: 'x' });
    }
  });
});
afterAll(() => server.close());

/** What the generator emits for a small spec, by hand. */
function createTestClient(options: { baseUrl: string; apiKey?: string; fetch?: FetchLike }) {
  const core = createCore<paths>({ ...options, serviceVersion: '2025-06-19' });
  return {
    items: {
      retrieve: (itemId: string, opts?: CallOptions) =>
        core.request('get', '/items/{item_id}', { params: { path: { item_id: itemId } }, ...opts }),
      create: (body: { name: string }, opts?: CallOptions) => core.request('post', '/items', { body, ...opts }),
      list: (query: { limit?: number } = {}, opts?: CallOptions) =>
        paginate(
          (cursor) => core.request('get', '/items', { params: { query: { ...query, cursor } }, ...opts }),
          'data',
        ),
      events: (itemId: string, opts: StreamCallOptions = {}) =>
        streamEvents<TestEvent>({
          ...core.transport,
          url: core.url('/items/{item_id}/events', { path: { item_id: itemId } }),
          loadValidator: () => import('./helpers/events.js').then((v) => v.validateTestEvent),
          isTerminal: isEnded,
          ...opts,
        }),
      session: (itemId: string, opts: SessionCallOptions = {}) =>
        openLazySession<TestEvent, ClientEvent>({
          ...core.transport,
          url: core.url('/items/{item_id}/session', { path: { item_id: itemId } }),
          loadValidators: () =>
            import('./helpers/events.js').then((v) => ({ server: v.validateTestEvent, client: acceptClientEvent })),
          isTerminal: isEnded,
          ...opts,
        }),
    },
  };
}

describe('a generated-style client', () => {
  const client = () => createTestClient({ baseUrl: server.url, apiKey: 'sk' });

  it('types and runs REST methods', async () => {
    expectTypeOf(client().items.retrieve('x')).resolves.toEqualTypeOf<Item>();
    expect(await client().items.retrieve('ca_1@v2', { maxRetries: 0, timeoutMs: 1000 })).toEqual({
      id: 'ca_1@v2',
      name: 'x',
    });
    expect(await client().items.create({ name: 'n' })).toMatchObject({ name: 'x' });
  });

  it('iterates a list across pages', async () => {
    const ids: string[] = [];
    for await (const item of client().items.list({ limit: 1 })) ids.push(item.id);
    expect(ids).toEqual(['it_1', 'it_2']);
  });

  it('streams events until the terminal one', async () => {
    const seen: TestEvent[] = [];
    for await (const event of client().items.events('it 1')) seen.push(event);
    expect(seen).toEqual(events);
  });

  it('streams over the fetch given to the client', async () => {
    const requests: string[] = [];
    const withFetch = createTestClient({
      baseUrl: server.url,
      apiKey: 'sk',
      fetch: (input, init) => {
        requests.push(new URL(String(input)).pathname);
        return globalThis.fetch(input, init);
      },
    });
    const seen: TestEvent[] = [];
    for await (const event of withFetch.items.events('it 1')) seen.push(event);
    expect(seen).toEqual(events);
    expect(requests).toEqual(['/items/it%201/events']);
    expect(streamRequests.at(-1)?.headers).toMatchObject({ 'sec-fetch-mode': 'cors', authorization: 'Bearer sk' });
  });

  it('opens the session at the percent-encoded ws:// URL with the API key', async () => {
    const session = client().items.session('it/1');
    // This server has no WebSocket endpoint: it answers the handshake with a plain 200, which is not retried.
    await expect(session.ready).rejects.toMatchObject({ status: 200 });
    const handshake = upgrades.at(-1);
    expect(handshake?.url).toBe('/items/it%2F1/session');
    expect(handshake?.headers).toMatchObject({ authorization: 'Bearer sk', 'service-version': '2025-06-19' });
  });

  it('takes a per-call apiKey for the stream and the session, which replaces the client key', async () => {
    const keyless = createTestClient({ baseUrl: server.url });
    for await (const _ of keyless.items.events('it_1', { apiKey: 'sk_call' }));
    expect(streamRequests.at(-1)?.headers.authorization).toBe('Bearer sk_call');
    const session = client().items.session('it_1', { apiKey: 'sk_call' });
    await expect(session.ready).rejects.toMatchObject({ status: 200 });
    expect(upgrades.at(-1)?.headers.authorization).toBe('Bearer sk_call');
    expectTypeOf<StreamCallOptions['apiKey']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SessionCallOptions['apiKey']>().toEqualTypeOf<string | undefined>();
  });

  it('narrows error codes with an instantiation expression', () => {
    const TypedError = ApiError<'not_found' | (string & {})>;
    const error: unknown = errorFromResponse(404, { code: 'not_found', transient: false, message: 'gone' });
    expect(error instanceof TypedError && error.code === 'not_found').toBe(true);
  });
});
