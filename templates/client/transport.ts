/**
 * What every connection carries: the fetch function, the API key or ephemeral token, the default headers, and the
 * link that passes a caller's abort on (here rather than in a file of its own, which a bundler would make a chunk of
 * its own for a page to fetch).
 */
import type { HeadersOptions } from 'openapi-fetch';
import { CasiError } from './errors.js';

/**
 * A fetch function with `globalThis.fetch`'s signature: calls and streams pass `(url, init)`, the openapi-fetch
 * client (`raw`) passes one `Request`.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The conversation's ephemeral token, or a function returning the current one (called on every (re)connect). */
export type TokenProvider = string | (() => string | Promise<string>);

/** The connection defaults a client core hands to streams and sessions (`core.transport`). */
export interface TransportOptions {
  /** The fetch used for SSE (default `globalThis.fetch`). */
  fetch?: FetchLike | undefined;
  /** Sent as `Authorization: Bearer <apiKey>` unless a `token` is given. */
  apiKey?: string | undefined;
  /**
   * Extra headers (`Service-Version`, defaults) on every request or handshake that can carry headers; a `null`
   * value sends none of that name.
   */
  headers?: CallHeaders | undefined;
  /** The API version; sent as `?service_version=` where headers cannot be sent (browser WebSocket). */
  serviceVersion?: string | undefined;
}

/** The default fetch, looked up at call time so polyfills installed later are used. */
export const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The current token from a provider, or `undefined` when there is none. A provider's own `CasiError` (say a failed
 * refresh call) passes through; anything else it throws becomes a `CasiError`, which is not retried.
 */
export async function resolveToken(token: TokenProvider | undefined): Promise<string | undefined> {
  try {
    return typeof token === 'function' ? await token() : token;
  } catch (error) {
    if (error instanceof CasiError) throw error;
    throw new CasiError('The token provider failed.', { cause: error });
  }
}

/** The `Authorization` header for an API key, unless a token replaces it. */
export function authorizationHeader(apiKey: string | undefined, token: string | undefined): Record<string, string> {
  return apiKey !== undefined && token === undefined ? { Authorization: `Bearer ${apiKey}` } : {};
}

/** Aborts `controller` (with the same reason) when `signal` aborts; returns a function that removes the link. */
export function forwardAbort(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** Per-call headers: each value set over the client's headers, `null` (or `undefined`) removing that header. */
export type CallHeaders = Readonly<Record<string, string | null | undefined>>;

/**
 * `base` (lower-case names) with each source's headers set over it, later ones winning, names compared without
 * case; a `null` or `undefined` value removes the header, an array sets a comma-separated list.
 */
export function mergeHeaders(
  base: Readonly<Record<string, string>>,
  ...sources: (HeadersOptions | undefined)[]
): Record<string, string> {
  const merged = { ...base };
  for (const source of sources) {
    if (source === undefined) continue;
    const entries = source instanceof Headers || Array.isArray(source) ? source : Object.entries(source);
    for (const [name, value] of entries as Iterable<[string, unknown]>) {
      const key = name.toLowerCase();
      if (value === null || value === undefined) delete merged[key];
      else merged[key] = Array.isArray(value) ? value.join(', ') : String(value);
    }
  }
  return merged;
}
