/**
 * Retries with exponential backoff and full jitter, honouring `Retry-After` and the body's `transient` flag. A request
 * that is not idempotent (POST, PATCH) is repeated only when the answer says it may be, or when it never left.
 */
import { ApiConnectionError, ApiError, ApiTimeoutError, ApiUserAbortError } from './errors.js';

/** How a call is retried; every field but `maxRetries` has a default. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  maxRetries: number;
  /**
   * Whether sending the request twice does no harm (default true: GET, HEAD, PUT, DELETE); false for POST and
   * PATCH, which `isRetryable` repeats only on the server's word or when the request was never sent.
   */
  idempotent?: boolean | undefined;
  /** Cancels the attempts and the waits between them (they reject with `ApiUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** First backoff step in ms (default 500). */
  baseDelayMs?: number;
  /** Largest backoff step in ms (default 8000). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this (default 60 s) ends the retries: the error is thrown at once. */
  maxRetryAfterMs?: number;
  /** Source of randomness in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
}

/** Default first backoff step. */
export const DEFAULT_BASE_DELAY_MS = 500;
/** Default largest backoff step. */
export const DEFAULT_MAX_DELAY_MS = 8_000;
/** Default cap on a server's `Retry-After`. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/**
 * Default number of consecutive failed connections a stream or session tolerates (see `ReconnectBudget`). It is
 * here, not in reconnect.ts, so that a page exporting it loads no reconnect code before it streams.
 */
export const DEFAULT_MAX_RECONNECTS = 10;

/** Full jitter: a random delay in [0, min(cap, base * 2^attempt)); `attempt` counts from 0. */
export function backoffDelay(
  attempt: number,
  baseMs = DEFAULT_BASE_DELAY_MS,
  capMs = DEFAULT_MAX_DELAY_MS,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait a server asked for, in ms: `retry-after-ms`, else `Retry-After` as seconds or an HTTP date.
 * `undefined` when absent or unparsable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whether an error may be retried. The body's `transient` decides when present (`false` never, `true` always), and
 * a 429 is always retried. Otherwise an idempotent request (the default) is retried on 408, 5xx and connection
 * errors (timeouts included); one that is not (POST, PATCH), which may have reached the server, only on a 503 with
 * `Retry-After` or when its connection failed before anything was sent (refused, unknown host).
 */
export function isRetryable(error: unknown, idempotent = true): boolean {
  if (error instanceof ApiError) {
    if (error.transient !== undefined) return error.transient;
    if (error.status === 429) return true;
    if (!idempotent) return error.status === 503 && retryAfterMs(error.headers) !== undefined;
    return error.status === 408 || error.status >= 500;
  }
  if (!(error instanceof ApiConnectionError)) return false;
  return idempotent || (!(error instanceof ApiTimeoutError) && neverSent(error.cause));
}

/** Error codes of a connection that was never made, so nothing was sent. */
const NOT_CONNECTED = /^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT)$/;

/**
 * Whether a connection error happened before the request was sent: somewhere in its `cause` chain (or among an
 * `AggregateError`'s errors, as Node reports each address tried) is a failed `connect` or name lookup, as Node's
 * fetch reports them. Browsers do not say: `false`. `depth` bounds a chain that loops.
 */
function neverSent(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 8) return false;
  const { code, syscall, cause, errors } = error as {
    code?: unknown;
    syscall?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  return (
    syscall === 'connect' ||
    syscall === 'getaddrinfo' ||
    NOT_CONNECTED.test(String(code)) ||
    neverSent(cause, depth + 1) ||
    (Array.isArray(errors) && errors.some((inner) => neverSent(inner, depth + 1)))
  );
}

/**
 * The wait before retry number `attempt` (from 0) after `error`: the backoff, added to the server's `Retry-After`
 * when it sent one (never less than it asked, spread so that clients told the same wait do not return together, and
 * growing with each refusal). `undefined` when the server asked for longer than `maxRetryAfterMs`: give up.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: Omit<RetryPolicy, 'maxRetries'> = {},
): number | undefined {
  const backoff = backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, policy.random);
  const asked = error instanceof ApiError ? retryAfterMs(error.headers) : undefined;
  if (asked === undefined) return backoff;
  return asked > (policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS) ? undefined : asked + backoff;
}

/** Resolves after `ms`, or rejects with `ApiUserAbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ApiUserAbortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ApiUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt(n)` (n = 0, 1, …) until it succeeds, the error is not retryable (`isRetryable`, with the policy's
 * `idempotent`), the server asks to wait longer than `maxRetryAfterMs`, or `maxRetries` retries are spent; the last
 * error is thrown. Each attempt must re-issue its request (bodies are consumed by fetch).
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let n = 0; ; n++) {
    if (policy.signal?.aborted) throw new ApiUserAbortError();
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= policy.maxRetries || !isRetryable(error, policy.idempotent ?? true)) throw error;
      const delay = retryDelay(error, n, policy);
      if (delay === undefined) throw error;
      await sleep(delay, policy.signal);
    }
  }
}
