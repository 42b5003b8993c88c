/**
 * Retries against a real server: statuses, `transient`, `Retry-After`, dropped connections, aborts, timeouts, and
 * requests that are not idempotent (POST), repeated only when the answer allows it or nothing was sent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiUserAbortError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  RateLimitError,
} from '../../templates/client/errors.js';
import { backoffDelay, isRetryable, retryAfterMs, retryDelay } from '../../templates/client/retry.js';
import { abortAfterCollections } from './helpers/gc.js';
import { readBody, sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { paths } from './helpers/paths.js';

type Answer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { status: number; text: string }
  | 'drop'
  | { delayMs: number };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const item = { id: 'it_1', name: 'one' };
const error = (code: string, transient: boolean) => ({ code, transient, message: code });

describe('over fetch', () => {
  /** A server answering each call with the next scripted answer (the last one repeats); records bodies. */
  async function scripted(answers: Answer[], retry: Parameters<typeof createCore>[0]['retry'] = {}) {
    const bodies: string[] = [];
    server = await startHttpServer(async (req, res) => {
      bodies.push(await readBody(req));
      const answer = answers[Math.min(bodies.length - 1, answers.length - 1)];
      if (answer === 'drop' || answer === undefined) {
        req.socket.destroy();
      } else if ('delayMs' in answer) {
        setTimeout(() => sendJson(res, 200, item), answer.delayMs).unref();
      } else if ('text' in answer) {
        res.writeHead(answer.status).end(answer.text);
      } else {
        sendJson(res, answer.status, answer.body ?? item, answer.headers);
      }
    });
    const core = createCore<paths>({
      baseUrl: server.url,
      apiKey: 'k',
      serviceVersion: '2025-06-19',
      retry: { baseDelayMs: 5, maxDelayMs: 20, ...retry },
    });
    return { core, bodies };
  }

  const get = (core: Awaited<ReturnType<typeof scripted>>['core'], init: object = {}) =>
    core.request('get', '/items/{item_id}', { params: { path: { item_id: 'it_1' } }, ...init });

  describe('retries', () => {
    it('waits at least Retry-After on a 429, then retries', async () => {
      const { core, bodies } = await scripted([
        { status: 429, body: error('rate_limited', true), headers: { 'retry-after': '1' } },
        { status: 200 },
      ]);
      const started = Date.now();
      await expect(get(core)).resolves.toEqual(item);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(bodies).toHaveLength(2);
    });

    it('honours retry-after-ms', async () => {
      const { core, bodies } = await scripted([
        { status: 429, body: error('rate_limited', true), headers: { 'retry-after-ms': '300', 'retry-after': '30' } },
        { status: 200 },
      ]);
      const started = Date.now();
      await get(core);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(bodies).toHaveLength(2);
    });

    it('retries a transient 503 until it succeeds', async () => {
      const unavailable = { status: 503, body: error('service_unavailable', true) };
      const { core, bodies } = await scripted([unavailable, unavailable, { status: 200 }]);
      await expect(get(core)).resolves.toEqual(item);
      expect(bodies).toHaveLength(3);
    });

    it('gives up after maxRetries and throws the last error', async () => {
      const { core, bodies } = await scripted([{ status: 503, body: error('service_unavailable', true) }]);
      await expect(get(core)).rejects.toBeInstanceOf(InternalServerError);
      expect(bodies).toHaveLength(3);
    });

    it('never retries when the body says transient: false, even on a 5xx', async () => {
      const { core, bodies } = await scripted([{ status: 500, body: error('internal_error', false) }]);
      await expect(get(core)).rejects.toBeInstanceOf(InternalServerError);
      expect(bodies).toHaveLength(1);
    });

    it('does not retry a 400 with transient: false', async () => {
      const { core, bodies } = await scripted([{ status: 400, body: error('invalid_request', false) }]);
      await expect(get(core)).rejects.toBeInstanceOf(BadRequestError);
      expect(bodies).toHaveLength(1);
    });

    it('retries a 409 that says transient: true', async () => {
      const { core, bodies } = await scripted([{ status: 409, body: error('busy', true) }, { status: 200 }]);
      await expect(get(core)).resolves.toEqual(item);
      expect(bodies).toHaveLength(2);
    });

    it('does not retry a 409 without a body saying so', async () => {
      const { core, bodies } = await scripted([{ status: 409, body: 'conflict' }]);
      await expect(get(core)).rejects.toBeInstanceOf(ConflictError);
      expect(bodies).toHaveLength(1);
    });

    it('retries a 5xx whose body is not the Error shape', async () => {
      const { core, bodies } = await scripted([{ status: 502, body: 'bad gateway' }, { status: 200 }]);
      await expect(get(core)).resolves.toEqual(item);
      expect(bodies).toHaveLength(2);
    });

    it('retries dropped connections of an idempotent request (PUT) and re-sends the body', async () => {
      const { core, bodies } = await scripted(['drop', 'drop', { status: 200 }]);
      const put = core.request('put', '/items/{item_id}', {
        params: { path: { item_id: 'it_1' } },
        body: { name: 'again' },
      });
      await expect(put).resolves.toEqual(item);
      expect(bodies).toEqual(['{"name":"again"}', '{"name":"again"}', '{"name":"again"}']);
    });

    it('gives up at once, with the RateLimitError, when Retry-After is longer than the cap', async () => {
      const { core, bodies } = await scripted([
        { status: 429, body: error('rate_limited', true), headers: { 'retry-after': '3600' } },
        { status: 200 },
      ]);
      const started = Date.now();
      const failure = await get(core).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RateLimitError);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(bodies).toHaveLength(1);
    });

    it('waits Retry-After plus a jitter that grows with each 429, never less than asked', async () => {
      const limited = { status: 429, body: error('rate_limited', true), headers: { 'retry-after-ms': '100' } };
      // random() = 0.99: the jitter is 99 ms, then 198 ms (base 100 ms doubling), on top of the 100 ms asked.
      const { core, bodies } = await scripted([limited, limited, { status: 200 }], {
        baseDelayMs: 100,
        maxDelayMs: 1000,
        random: () => 0.99,
      });
      const started = Date.now();
      await expect(get(core)).resolves.toEqual(item);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 99 + 100 + 198);
      expect(bodies).toHaveLength(3);
    });

    it('throws ApiConnectionError when the connection keeps dropping', async () => {
      const { core, bodies } = await scripted(['drop']);
      await expect(get(core)).rejects.toBeInstanceOf(ApiConnectionError);
      expect(bodies).toHaveLength(3);
    });

    it('takes a per-call maxRetries', async () => {
      const { core, bodies } = await scripted([{ status: 503, body: error('service_unavailable', true) }]);
      await expect(get(core, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
      expect(bodies).toHaveLength(1);
      await expect(get(core, { maxRetries: 4 })).rejects.toBeInstanceOf(InternalServerError);
      expect(bodies).toHaveLength(6);
    });

    it('stops waiting when the signal aborts during a retry wait', async () => {
      const { core, bodies } = await scripted([
        { status: 429, body: error('rate_limited', true), headers: { 'retry-after': '20' } },
      ]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await expect(get(core, { signal: controller.signal })).rejects.toBeInstanceOf(ApiUserAbortError);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(bodies).toHaveLength(1);
    });

    it('throws ApiUserAbortError when the signal aborts the request itself', async () => {
      const { core } = await scripted([{ delayMs: 5000 }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      await expect(get(core, { signal: controller.signal })).rejects.toBeInstanceOf(ApiUserAbortError);
    });

    it('throws ApiUserAbortError when the signal aborts the request after a garbage collection', async () => {
      const { core, bodies } = await scripted([{ delayMs: 5000 }]);
      const controller = new AbortController();
      const outcome = get(core, { signal: controller.signal, maxRetries: 0 }).catch((e: unknown) => e);
      for (let i = 0; i < 200 && bodies.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(bodies).toHaveLength(1);
      const settled = await abortAfterCollections(controller, outcome, 3000);
      expect(settled).toBeInstanceOf(ApiUserAbortError);
    });

    it('throws ApiTimeoutError after timeoutMs, retrying timeouts', async () => {
      const { core, bodies } = await scripted([{ delayMs: 5000 }]);
      const started = Date.now();
      await expect(get(core, { timeoutMs: 150, maxRetries: 0 })).rejects.toBeInstanceOf(ApiTimeoutError);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(bodies).toHaveLength(1);
      await expect(get(core, { timeoutMs: 100, maxRetries: 1 })).rejects.toBeInstanceOf(ApiTimeoutError);
      expect(bodies).toHaveLength(3);
    });

    it('succeeds when a retry after a timeout is fast', async () => {
      const { core, bodies } = await scripted([{ delayMs: 5000 }, { status: 200 }]);
      await expect(get(core, { timeoutMs: 150 })).resolves.toEqual(item);
      expect(bodies).toHaveLength(2);
    });
  });

  describe('a POST, which may have reached the server', () => {
    const post = (core: Awaited<ReturnType<typeof scripted>>['core'], init: object = {}) =>
      core.request('post', '/items', { body: { name: 'once' }, ...init });
    /** Waits long enough for any retry (backoff of at most 20 ms) to have reached the server. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

    it('is not re-sent after a timeout', async () => {
      const { core, bodies } = await scripted([{ delayMs: 400 }]);
      await expect(post(core, { timeoutMs: 250 })).rejects.toBeInstanceOf(ApiTimeoutError);
      await settle();
      expect(bodies).toEqual(['{"name":"once"}']);
    });

    it('is not re-sent when the connection drops after it was sent', async () => {
      const { core, bodies } = await scripted(['drop', { status: 200 }]);
      await expect(post(core)).rejects.toBeInstanceOf(ApiConnectionError);
      await settle();
      expect(bodies).toHaveLength(1);
    });

    it.each([
      ['a 502 without a body', { status: 502, text: '' }],
      ['a 500 without a transient flag', { status: 500, body: 'oops' }],
      ['a 503 without Retry-After', { status: 503, body: 'busy' }],
      ['a 408', { status: 408, text: '' }],
    ])('is not retried after %s', async (_name, answer) => {
      const { core, bodies } = await scripted([answer, { status: 200 }]);
      await expect(post(core)).rejects.toBeInstanceOf(ApiError);
      await settle();
      expect(bodies).toHaveLength(1);
    });

    it.each([
      ['a 429', { status: 429, text: '' }],
      ['an error body saying transient: true', { status: 500, body: error('internal_error', true) }],
      ['a 503 with Retry-After', { status: 503, body: 'busy', headers: { 'retry-after': '0' } }],
    ])('is retried after %s', async (_name, answer) => {
      const { core, bodies } = await scripted([answer, { status: 200 }]);
      await expect(post(core)).resolves.toEqual(item);
      expect(bodies).toEqual(['{"name":"once"}', '{"name":"once"}']);
    });

    it('is retried when the connection was refused, so nothing was sent', async () => {
      // A port nothing listens on until the first retry, which comes after 0.99 * 300 ms.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise((resolve) => probe.close(resolve));
      const bodies: string[] = [];
      const late = createServer(async (req, res) => {
        bodies.push(await readBody(req));
        sendJson(res, 200, item);
      });
      const core = createCore<paths>({
        baseUrl: `http://127.0.0.1:${port}`,
        serviceVersion: '2025-06-19',
        retry: { baseDelayMs: 300, random: () => 0.99 },
      });
      const outcome = post(core);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise<void>((resolve) => late.listen(port, '127.0.0.1', resolve));
      try {
        await expect(outcome).resolves.toEqual(item);
        expect(bodies).toEqual(['{"name":"once"}']);
      } finally {
        late.closeAllConnections();
        await new Promise((resolve) => late.close(resolve));
      }
    });
  });
});

describe('backoff helpers', () => {
  it('keeps full-jitter delays within [0, min(cap, base * 2^n))', () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(8000, 500 * 2 ** attempt);
      expect(backoffDelay(attempt, 500, 8000, () => 0)).toBe(0);
      expect(backoffDelay(attempt, 500, 8000, () => 0.999999)).toBeLessThan(ceiling);
      expect(backoffDelay(attempt, 500, 8000, () => 0.999999)).toBeGreaterThanOrEqual(ceiling - 1);
    }
  });

  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': 'Wed, 02 Jul 2025 14:00:10 GMT' }, 10_000],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{}, undefined],
  ])('reads %o as %s ms', (headers, want) => {
    expect(retryAfterMs(new Headers(headers), Date.UTC(2025, 6, 2, 14, 0, 0))).toBe(want);
  });

  it.each([
    ['429 without body', new RateLimitError(429, 'unknown_error', '', undefined, null, new Headers()), true],
    ['503 transient false', new InternalServerError(503, 'x', '', false, null, new Headers()), false],
    ['418 transient true', new ApiError(418, 'x', '', true, null, new Headers()), true],
    ['400 unknown', new BadRequestError(400, 'x', '', undefined, null, new Headers()), false],
    ['connection error', new ApiConnectionError(), true],
    ['timeout', new ApiTimeoutError(), true],
    ['user abort', new ApiUserAbortError(), false],
    ['anything else', new Error('x'), false],
  ])('isRetryable(%s) is %s', (_name, error, want) => {
    expect(isRetryable(error)).toBe(want);
  });

  const refused = new ApiConnectionError(undefined, {
    cause: new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }),
  });
  const reset = new ApiConnectionError(undefined, { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
  it.each([
    ['429 without body', new RateLimitError(429, 'unknown_error', '', undefined, null, new Headers()), true],
    ['500 transient true', new InternalServerError(500, 'x', '', true, null, new Headers()), true],
    ['429 transient false', new RateLimitError(429, 'x', '', false, null, new Headers()), false],
    ['502 without body', new InternalServerError(502, 'unknown_error', '', undefined, null, new Headers()), false],
    [
      '503 with Retry-After',
      new InternalServerError(503, 'x', '', undefined, null, new Headers({ 'retry-after': '1' })),
      true,
    ],
    ['a connection refused', refused, true],
    ['a connection reset', reset, false],
    ['timeout', new ApiTimeoutError(), false],
  ])('isRetryable(%s) of a POST is %s', (_name, error, want) => {
    expect(isRetryable(error, false)).toBe(want);
  });

  it('adds the backoff to Retry-After, and gives up above maxRetryAfterMs', () => {
    const asked = (value: string) =>
      new RateLimitError(429, 'x', '', true, null, new Headers({ 'retry-after': value }));
    const policy = { baseDelayMs: 500, maxDelayMs: 8000 };
    expect(retryDelay(asked('1'), 0, { ...policy, random: () => 0 })).toBe(1000);
    expect(retryDelay(asked('1'), 0, { ...policy, random: () => 0.5 })).toBe(1250);
    expect(retryDelay(asked('1'), 2, { ...policy, random: () => 0.5 })).toBe(2000);
    expect(retryDelay(asked('60'), 0, { ...policy, random: () => 0 })).toBe(60_000);
    expect(retryDelay(asked('3600'), 0, policy)).toBeUndefined();
    expect(retryDelay(asked('3600'), 0, { ...policy, maxRetryAfterMs: 3_600_000, random: () => 0 })).toBe(3_600_000);
    expect(retryDelay(new ApiConnectionError(), 1, { ...policy, random: () => 0.5 })).toBe(500);
  });
});
