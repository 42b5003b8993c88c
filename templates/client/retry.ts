/** Retries with exponential backoff and full jitter, honouring `Retry-After` and the body's `transient` flag. */
import { ApiConnectionError, ApiError, ApiUserAbortError } from './errors.js';

/** How a call is retried; every field but `maxRetries` has a default. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  maxRetries: number;
  /** Cancels the attempts and the waits between them (they reject with `ApiUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** First backoff step in ms (default 500). */
  baseDelayMs?: number;
  /** Largest backoff step in ms (default 8000). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this (default 60 s) is ignored in favour of the backoff. */
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
 * Whether an error may be retried: the body's `transient` decides when present (`false` never, `true` always);
 * otherwise 408, 429, 5xx and connection errors (timeouts included) are retried.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.transient !== undefined) return error.transient;
    return error.status === 408 || error.status === 429 || error.status >= 500;
  }
  return error instanceof ApiConnectionError;
}

/** The wait before retry number `attempt` (from 0) after `error`: the server's `Retry-After` if sane, else backoff. */
export function retryDelay(error: unknown, attempt: number, policy: Omit<RetryPolicy, 'maxRetries'> = {}): number {
  if (error instanceof ApiError) {
    const asked = retryAfterMs(error.headers);
    if (asked !== undefined && asked <= (policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS)) return asked;
  }
  return backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, policy.random);
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
 * Runs `attempt(n)` (n = 0, 1, …) until it succeeds, the error is not retryable, or `maxRetries` retries are spent;
 * the last error is thrown. Each attempt must re-issue its request (bodies are consumed by fetch).
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let n = 0; ; n++) {
    if (policy.signal?.aborted) throw new ApiUserAbortError();
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= policy.maxRetries || !isRetryable(error)) throw error;
      await sleep(retryDelay(error, n, policy), policy.signal);
    }
  }
}
