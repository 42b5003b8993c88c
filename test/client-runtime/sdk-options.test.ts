/**
 * The options a generated client offers next to openai-node's, against a real loopback server: per-call headers
 * (REST and event streams), `withResponse()`/`asResponse()`, `baseUrl` and the API key from the environment, and
 * the `onRequest`/`onResponse` hooks and log lines.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  ApiPromise,
  CasiError,
  type Client,
  createClient,
  InternalServerError,
  NotFoundError,
  type RequestInfo,
  type ResponseInfo,
} from '../../generated/src/client.gen.js';
import type { Conversation } from '../../generated/src/types.gen.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import { startSessionServer } from './helpers/ws-server.js';

let server: TestServer;
const seen: { url: string; headers: IncomingMessage['headers'] }[] = [];
const conversation = { id: 'conv_1', status: 'active' };
/** Answers of `/conversations/flaky` still to fail with a 500. */
let failures = 0;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/conversations/flaky' && failures > 0) {
      failures--;
      sendJson(res, 500, { code: 'internal', transient: true, message: 'Try again.' });
    } else if (req.url?.endsWith('/events')) {
      sendJson(res, 404, { code: 'not_found', transient: false, message: 'No such conversation.' });
    } else {
      sendJson(res, 200, conversation, { 'x-request-id': 'req_42' });
    }
  });
});
afterAll(() => server.close());
afterEach(() => vi.unstubAllEnvs());

const client = (options: Partial<Parameters<typeof createClient>[0]> = {}): Client =>
  createClient({ baseUrl: server.url, apiKey: 'sk_test', defaultHeaders: { 'X-Team': 'blue' }, ...options });

describe('per-call headers', () => {
  it('are set over the defaults with names compared without case, and null removes one', async () => {
    await client().conversations.retrieve('conv_1', { headers: { 'x-team': 'red', 'X-Trace': 't1' } });
    expect(seen.at(-1)?.headers).toMatchObject({ 'x-team': 'red', 'x-trace': 't1', authorization: 'Bearer sk_test' });
    await client().conversations.retrieve('conv_1', { headers: { 'X-TEAM': null, authorization: null } });
    expect(seen.at(-1)?.headers['x-team']).toBeUndefined();
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    expect(seen.at(-1)?.headers['service-version']).toBe('2025-06-19');
  });

  it('go with an event stream, over the client headers', async () => {
    const stream = client().conversations.events('conv_1', { headers: { 'x-team': 'green', 'X-Trace': 't2' } });
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(NotFoundError);
    const last = seen.at(-1);
    expect(last?.url).toBe('/conversations/conv_1/events');
    expect(last?.headers).toMatchObject({ 'x-team': 'green', 'x-trace': 't2', 'service-version': '2025-06-19' });
  });
  it('go with a session handshake (ws in Node), over the client headers', async () => {
    const sessions = await startSessionServer();
    try {
      const session = client({ baseUrl: sessions.url }).conversations.session('conv_1', {
        headers: { 'X-TEAM': 'green', 'service-version': null },
      });
      await session.ready;
      session.close();
      expect(sessions.connections[0]?.headers).toMatchObject({ 'x-team': 'green', authorization: 'Bearer sk_test' });
      expect(sessions.connections[0]?.headers['service-version']).toBeUndefined();
    } finally {
      await sessions.close();
    }
  });
});

describe('withResponse and asResponse', () => {
  it('leave `await` giving the body, and is a Promise', async () => {
    const call = client().conversations.retrieve('conv_1');
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(ApiPromise);
    expect(await call).toEqual(conversation);
  });

  it('give the typed body with the answer status and headers', async () => {
    const { data, response } = await client().conversations.retrieve('conv_1').withResponse();
    expectTypeOf(data).toEqualTypeOf<Conversation>();
    expect(data).toEqual(conversation);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_42');
  });

  it('give the answer as a Response whose body can be read', async () => {
    const response = await client().conversations.retrieve('conv_1').asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(conversation);
  });

  it('reject with the error of the call', async () => {
    failures = 1;
    const call = client({ maxRetries: 0 }).conversations.retrieve('flaky');
    await expect(call.withResponse()).rejects.toBeInstanceOf(InternalServerError);
    await expect(call.asResponse()).rejects.toBeInstanceOf(InternalServerError);
    await expect(call).rejects.toBeInstanceOf(InternalServerError);
  });
});

describe('options from the environment', () => {
  it('reads CASI_BASE_URL and CASI_API_KEY when baseUrl and apiKey are not given', async () => {
    vi.stubEnv('CASI_BASE_URL', server.url);
    vi.stubEnv('CASI_API_KEY', 'sk_env');
    expect(await createClient({}).conversations.retrieve('conv_1')).toEqual(conversation);
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer sk_env');
    await createClient({ apiKey: 'sk_given' }).conversations.retrieve('conv_1');
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer sk_given');
  });

  it('refuses to start without a base URL, naming both options and both variables', () => {
    vi.stubEnv('CASI_BASE_URL', '');
    const start = () => createClient({});
    expect(start).toThrow(CasiError);
    expect(start).toThrow(/`baseUrl`.*`apiKey`.*CASI_BASE_URL.*CASI_API_KEY/);
  });
});

describe('hooks and logs', () => {
  it('tell each attempt: method, url, headers without the credential, status, duration and attempt number', async () => {
    const requests: RequestInfo[] = [];
    const responses: ResponseInfo[] = [];
    const hooked = client({
      retry: { baseDelayMs: 1 },
      onRequest: (info) => requests.push(info),
      onResponse: (info) => responses.push(info),
    });
    failures = 1;
    await hooked.conversations.retrieve('flaky');
    expect(requests.map((r) => r.attempt)).toEqual([1, 2]);
    expect(requests[0]).toMatchObject({ method: 'GET', url: `${server.url}/conversations/flaky` });
    expect(requests[0]?.headers).toMatchObject({ authorization: '[redacted]', 'x-team': 'blue' });
    expect(JSON.stringify(requests)).not.toContain('sk_test');
    expect(responses.map((r) => [r.attempt, r.status])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(responses.every((r) => r.durationMs >= 0)).toBe(true);
  });

  it('tell an attempt that got no answer, with its error', async () => {
    const responses: ResponseInfo[] = [];
    const closed = await startHttpServer(() => {});
    await closed.close();
    const hooked = createClient({ baseUrl: closed.url, maxRetries: 0, onResponse: (info) => responses.push(info) });
    await expect(hooked.conversations.retrieve('conv_1')).rejects.toThrow(/Connection error/);
    expect(responses).toHaveLength(1);
    expect(responses[0]?.status).toBeUndefined();
    expect(responses[0]?.error).toBeInstanceOf(Error);
  });

  it('log failed attempts at warn, answers at info, requests at debug, without the credential', async () => {
    const lines: [string, string][] = [];
    const logger = {
      debug: (message: string, ...data: unknown[]) => lines.push(['debug', `${message} ${JSON.stringify(data)}`]),
      info: (message: string) => lines.push(['info', message]),
      warn: (message: string) => lines.push(['warn', message]),
    };
    failures = 1;
    await client({ logger, logLevel: 'warn', retry: { baseDelayMs: 1 } }).conversations.retrieve('flaky');
    expect(lines.map(([level]) => level)).toEqual(['warn']);
    expect(lines[0]?.[1]).toMatch(/^casi: GET .*\/conversations\/flaky -> 500 in \d+ ms \(attempt 1\)$/);
    lines.length = 0;
    await client({ logger, logLevel: 'debug' }).conversations.retrieve('conv_1');
    expect(lines.map(([level]) => level)).toEqual(['debug', 'info']);
    expect(lines.join(' ')).not.toContain('sk_test');
    lines.length = 0;
    await client({ logger }).conversations.retrieve('conv_1');
    expect(lines).toEqual([]);
  });

  it('take the level from CASI_LOG when logLevel is not given', async () => {
    vi.stubEnv('CASI_LOG', 'info');
    const lines: string[] = [];
    const logger = { debug: () => {}, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
    await client({ logger }).conversations.retrieve('conv_1');
    expect(lines).toHaveLength(1);
  });
});
