/** The REST core of a client: an openapi-fetch client with auth and version headers, timeouts, retries and errors. */
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type MaybeOptionalInit,
  type MethodResponse,
} from 'openapi-fetch';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import { type RetryPolicy, withRetry } from './retry.js';
import { forwardAbort } from './signals.js';
import { defaultFetch, type FetchLike, type TransportOptions } from './transport.js';
import { buildUrl, safePathSerializer, type UrlParams } from './url.js';

/** HTTP methods as openapi-fetch names them. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Options of `createCore`; the generated client passes `serviceVersion`. */
export interface CoreOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` (omit in browsers; use the conversation token for events). */
  apiKey?: string | undefined;
  /** A fetch taking one `Request` (default `globalThis.fetch`). */
  fetch?: FetchLike | undefined;
  /** Per-attempt timeout in ms (default 60000). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** The `Service-Version` header value. */
  serviceVersion: string;
  /** Headers sent with every request. */
  defaultHeaders?: Readonly<Record<string, string>> | undefined;
  /** Backoff tuning (base 500 ms, cap 8 s, `Retry-After` honoured up to 60 s). */
  retry?: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'random'> | undefined;
}

/** `CoreOptions` with every default applied. */
export interface ResolvedCoreOptions extends CoreOptions {
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
}

/** Per-call options accepted next to openapi-fetch's `params`, `body` and `headers`. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
}

/** Default per-attempt timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default number of retries. */
export const DEFAULT_MAX_RETRIES = 2;

type Init<
  Paths extends {},
  M extends HttpMethod,
  P extends ClientPathsWithMethod<Client<Paths>, M>,
> = MaybeOptionalInit<Paths[P & keyof Paths], M & keyof Paths[P & keyof Paths]>;

/** `[init]`, optional when the operation needs neither params nor body (as openapi-fetch does it). */
type InitArgs<I> = undefined extends I ? [init?: I & CallOptions] : [init: I & CallOptions];

/** The success body of an operation (`undefined` when it has none). */
export type SuccessData<
  Paths extends {},
  M extends HttpMethod,
  P extends ClientPathsWithMethod<Client<Paths>, M>,
  I,
> = [MethodResponse<Client<Paths>, M, P, I>] extends [never] ? undefined : MethodResponse<Client<Paths>, M, P, I>;

/** A client core: the typed `request`, the raw openapi-fetch client, URL building and connection defaults. */
export interface Core<Paths extends {}> {
  /** The openapi-fetch client (`{ data, error, response }`), with the auth and version middleware installed. */
  readonly raw: Client<Paths>;
  /** The options with their defaults applied. */
  readonly options: ResolvedCoreOptions;
  /** Connection defaults for `streamEvents` and `openSession` (fetch, apiKey, headers, serviceVersion). */
  readonly transport: Readonly<TransportOptions>;
  /**
   * Calls one operation and returns its success body, or throws the `ApiError` family, `ApiConnectionError`,
   * `ApiTimeoutError` or `ApiUserAbortError`. Retries re-issue the whole call, so the body is sent again.
   */
  request<M extends HttpMethod, P extends ClientPathsWithMethod<Client<Paths>, M>, I extends Init<Paths, M, P>>(
    method: M,
    path: P,
    ...init: InitArgs<I>
  ): Promise<SuccessData<Paths, M, P, I>>;
  /** The absolute URL of a path template with percent-encoded path parameters and a query string. */
  url(path: string, params?: UrlParams): string;
}

/** Builds a client core over the spec's openapi-typescript `paths` type. */
export function createCore<Paths extends {}>(options: CoreOptions): Core<Paths> {
  const resolved: ResolvedCoreOptions = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch ?? defaultFetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    serviceVersion: options.serviceVersion,
    defaultHeaders: options.defaultHeaders ?? {},
    retry: options.retry,
  };
  const raw = createClient<Paths>({
    baseUrl: resolved.baseUrl,
    fetch: resolved.fetch,
    headers: { ...resolved.defaultHeaders },
    pathSerializer: safePathSerializer,
  });
  raw.use({
    onRequest({ request }) {
      if (resolved.apiKey !== undefined && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${resolved.apiKey}`);
      }
      if (!request.headers.has('Service-Version')) request.headers.set('Service-Version', resolved.serviceVersion);
      return request;
    },
  });

  /** One attempt: a fresh call with its own timeout, its outcome turned into data or one of our errors. */
  async function attempt(method: string, path: string, init: Record<string, unknown>, call: CallOptions) {
    const controller = new AbortController();
    const unlink = forwardAbort(call.signal, controller);
    const timeoutMs = call.timeoutMs ?? resolved.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const request = raw.request as (m: string, p: string, i: object) => ReturnType<Client<Paths>['GET']>;
      const { data, error, response } = await request(method, path, { ...init, signal: controller.signal });
      if (!response.ok) throw errorFromResponse(response.status, error, response.headers);
      return data;
    } catch (error) {
      if (error instanceof CasiError) throw error;
      if (call.signal?.aborted) throw new ApiUserAbortError();
      if (timedOut) throw new ApiTimeoutError(`Request timed out after ${timeoutMs} ms.`);
      if (error instanceof SyntaxError) throw new CasiError('The response body is not valid JSON.', { cause: error });
      throw new ApiConnectionError(undefined, { cause: error });
    } finally {
      clearTimeout(timer);
      unlink();
    }
  }

  return {
    raw,
    options: resolved,
    transport: {
      fetch: resolved.fetch,
      apiKey: resolved.apiKey,
      headers: { ...resolved.defaultHeaders, 'Service-Version': resolved.serviceVersion },
      serviceVersion: resolved.serviceVersion,
    },
    request(method, path, ...args) {
      const { signal, maxRetries, timeoutMs, ...init } = (args[0] ?? {}) as Record<string, unknown> & CallOptions;
      const call: CallOptions = { signal, timeoutMs };
      return withRetry(() => attempt(method, path as string, init, call), {
        ...resolved.retry,
        maxRetries: maxRetries ?? resolved.maxRetries,
        signal,
      }) as Promise<never>;
    },
    url: (path, params) => buildUrl(resolved.baseUrl, path, params),
  };
}
