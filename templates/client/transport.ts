/**
 * What every connection carries: the fetch function, the API key or ephemeral token, the default headers, and the
 * link that passes a caller's abort on (here rather than in a file of its own, which a bundler would make a chunk of
 * its own for a page to fetch).
 */
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
  /** Extra headers (`Service-Version`, defaults) on every request or handshake that can carry headers. */
  headers?: Readonly<Record<string, string>> | undefined;
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
