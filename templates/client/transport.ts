/**
 * What every connection carries: the fetch function, the API key or ephemeral token, the default headers, and the
 * link that passes a caller's abort on (here rather than in a file of its own, which a bundler would make a chunk of
 * its own for a page to fetch).
 */
import { CasiError } from './errors.js';

/** A fetch function taking one `Request` (what openapi-fetch calls; `globalThis.fetch` fits). */
export type FetchLike = (input: Request) => Promise<Response>;

/** The conversation's ephemeral token, or a function returning the current one (called on every (re)connect). */
export type TokenProvider = string | (() => string | Promise<string>);

/** The connection defaults a client core hands to streams and sessions (`core.transport`). */
export interface TransportOptions {
  /** The fetch used for SSE; without one, Node reads streams with `node:http` and other runtimes with `globalThis.fetch`. */
  fetch?: FetchLike | undefined;
  /** Sent as `Authorization: Bearer <apiKey>` unless a `token` is given. */
  apiKey?: string | undefined;
  /** Extra headers (`Service-Version`, defaults) on every request or handshake that can carry headers. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The API version; sent as `?service_version=` where headers cannot be sent (browser WebSocket). */
  serviceVersion?: string | undefined;
}

/** The default fetch, looked up at call time so polyfills installed later are used. */
export const defaultFetch: FetchLike = (input) => globalThis.fetch(input);

/** Requests in flight, kept reachable until their answer settles (see `fetchHolding`). */
const inFlight = new Set<Request>();

/**
 * `fetch(request)`, with `request` kept reachable until the answer settles. Node's fetch works on a copy of the
 * Request, whose signal follows the original's only while the original lives (nodejs/undici#4068): a Request
 * collected mid-flight would leave an abort (a cancel, a timeout) unheard, and the call waiting for ever.
 */
export async function fetchHolding(fetch: FetchLike, request: Request): Promise<Response> {
  inFlight.add(request);
  try {
    return await fetch(request);
  } finally {
    inFlight.delete(request);
  }
}

/** True in Node (≥ 20.16) and runtimes that mimic it: `node:http` can be had without an import to resolve. */
export function hasNodeHttp(): boolean {
  return typeof process !== 'undefined' && typeof process.getBuiltinModule === 'function';
}

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
