/**
 * The REST core of a client: typed calls (auth and version headers, timeouts, retries, errors) sent with `fetch`
 * (the given one, else the global one), and an openapi-fetch client with the same headers as `raw`.
 */

import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type HeadersOptions,
  type MaybeOptionalInit,
  type MethodResponse,
} from 'openapi-fetch';
import { assertValid } from '../shared/errors.js';
import type { Validator } from '../shared/validation.js';
import type { BinaryBody, EncodedBody } from './body-encoding.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import type { EventReadingOptions } from './event-reading.js';
import { fetchExchange, isTimeout, type Outgoing, type ReadAs } from './exchange.js';
import { cookieText, headerValue, type ParameterStyles } from './parameter-styles.js';
import { type RetryPolicy, withRetry } from './retry.js';
import { placeCredentials, type SecuritySchemes } from './security.js';
import { defaultFetch, type FetchLike, type TransportOptions } from './transport.js';
import { buildUrl, safePathSerializer, type UrlParams } from './url.js';

/** HTTP methods as openapi-fetch names them. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/**
 * Options of `createCore`; the generated client passes `serviceVersion`. `strict` and `unknownEvents` say how the
 * events of every stream and session are read (see `EventReadingOptions`: by default, tolerantly).
 */
export interface CoreOptions extends EventReadingOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /**
   * The token or API key: sent as each operation's security schemes say (`Authorization: Bearer <apiKey>` for a
   * bearer scheme, its header, query member or cookie for an API key), or as a bearer token where the client knows
   * no schemes. Omit in browsers; use the conversation token for events.
   */
  apiKey?: string | undefined;
  /** User name and password, for operations secured by HTTP basic authentication. */
  username?: string | undefined;
  password?: string | undefined;
  /** The spec's security schemes, by name (the generated client passes them). */
  securitySchemes?: SecuritySchemes | undefined;
  /**
   * The fetch for every call and event stream (default `globalThis.fetch`), called as the global one is: `(url,
   * init)`, and `(request)` by `raw`.
   */
  fetch?: FetchLike | undefined;
  /** Per-attempt timeout in ms (default 60000; `Infinity` disables it). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** The `Service-Version` header value, for APIs that have one (sent on every request). */
  serviceVersion?: string | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Readonly<Record<string, string>> | undefined;
  /** Backoff tuning (base 500 ms, cap 8 s; a `Retry-After` above 60 s ends the call instead of being waited). */
  retry?: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'random'> | undefined;
  /**
   * Checks every success body strictly, for tests: the validator of the answer to `method` (lower case) on the path
   * template with `status` (the generated server module's `routes` hold them), or `undefined` to leave it
   * unchecked. A body it refuses (an unknown member included) throws `ValidationError`. Without it bodies are not
   * checked, so members this client does not know are kept.
   */
  responseValidator?: ((method: string, path: string, status: number) => Validator<unknown> | undefined) | undefined;
}

/** `CoreOptions` with every default applied. */
export interface ResolvedCoreOptions extends CoreOptions {
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
}

/** Per-call options accepted next to `params`, `body`, `headers` and the other `RequestInit` members. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
}

/**
 * What the generated methods tell `request` of an operation, from the spec: the request media type (default
 * `application/json`), how to read a success answer (default `json`), and the styles of parameters not written in
 * their location's default style.
 */
export interface OperationMedia {
  contentType?: string | undefined;
  readAs?: ReadAs | undefined;
  styles?: ParameterStyles | undefined;
}

/** openapi-fetch's own request options, which `request` does not take (`raw` does). */
type RawOnly = {
  [K in
    | 'baseUrl'
    | 'fetch'
    | 'parseAs'
    | 'querySerializer'
    | 'bodySerializer'
    | 'pathSerializer'
    | 'middleware']?: never;
};

/**
 * Methods whose request may change something each time it arrives: retried only when the answer says so or when
 * nothing was sent (see `isRetryable`).
 */
const NOT_IDEMPOTENT: ReadonlySet<string> = new Set(['POST', 'PATCH']);

/** Default per-attempt timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default number of retries. */
export const DEFAULT_MAX_RETRIES = 2;

type Init<Paths extends {}, M extends HttpMethod, P extends ClientPathsWithMethod<Client<Paths>, M>> = WithBinaryBody<
  MaybeOptionalInit<Paths[P & keyof Paths], M & keyof Paths[P & keyof Paths]>
>;

/** An init whose body may also be given as bytes (`BinaryBody`), which a binary request media type sends as they are. */
type WithBinaryBody<I> = I extends { body: infer B }
  ? Omit<I, 'body'> & { body: B | BinaryBody }
  : I extends { body?: infer B }
    ? Omit<I, 'body'> & { body?: B | BinaryBody }
    : I;

/** `[init]`, optional when the operation needs neither params nor body (as openapi-fetch does it). */
type InitArgs<I> = undefined extends I
  ? [init?: I & CallOptions & OperationMedia & RawOnly]
  : [init: I & CallOptions & OperationMedia & RawOnly];

/**
 * What `request` resolves to: the success body as JSON (`undefined` when it has none), or as `readAs` says: a
 * string, a `Blob`, or the event stream's items.
 */
export type RequestResult<
  Paths extends {},
  M extends HttpMethod,
  P extends ClientPathsWithMethod<Client<Paths>, M>,
  I,
> = I extends { readAs: 'text' }
  ? string
  : I extends { readAs: 'blob' }
    ? Blob
    : I extends { readAs: 'event-stream' }
      ? AsyncIterable<unknown>
      : SuccessData<Paths, M, P, I>;

/** The success body of an operation (`undefined` when it has none). */
export type SuccessData<
  Paths extends {},
  M extends HttpMethod,
  P extends ClientPathsWithMethod<Client<Paths>, M>,
  I,
> = [MethodResponse<Client<Paths, JsonMedia>, M, P, I>] extends [never]
  ? undefined
  : MethodResponse<Client<Paths, JsonMedia>, M, P, I>;

/** The media types `request` reads (it parses the body as JSON): an operation's other ones are not its data. */
type JsonMedia = `${string}/json` | `${string}/${string}+json`;

/** The header parameter every request carries already: `raw` callers need not pass it. */
type SentHeader = 'Service-Version';

/** An operation's parameters with the `Service-Version` header optional (`header` too, when nothing else is required). */
type HeaderSent<Params> = Params extends { header: infer H extends { [K in SentHeader]: unknown } }
  ? { [K in keyof Params as K extends 'header' ? never : K]: Params[K] } & OptionalWhenEmpty<
      Omit<H, SentHeader> & Partial<Pick<H, SentHeader>>,
      Omit<H, SentHeader>
    >
  : Params;

/** `{ header: H }`, or `{ header?: H }` when `Rest` (the members the caller must give) has no required member. */
type OptionalWhenEmpty<H, Rest> = Partial<Rest> extends Rest ? { header?: H } : { header: H };

/** `Paths` as `raw` takes them: each operation's `Service-Version` header parameter is optional (it is always sent). */
export type PathsWithSentHeaders<Paths> = {
  [P in keyof Paths]: {
    [M in keyof Paths[P]]: M extends HttpMethod
      ? { [K in keyof Paths[P][M]]: K extends 'parameters' ? HeaderSent<Paths[P][M][K]> : Paths[P][M][K] }
      : Paths[P][M];
  };
};

/** A client core: the typed `request`, the raw openapi-fetch client, URL building and connection defaults. */
export interface Core<Paths extends {}> {
  /**
   * The openapi-fetch client (`{ data, error, response }`), sending the same auth, version and default headers; the
   * `Service-Version` header parameter is therefore optional in its calls.
   */
  readonly raw: Client<PathsWithSentHeaders<Paths>>;
  /** The options with their defaults applied. */
  readonly options: ResolvedCoreOptions;
  /**
   * Connection defaults for `streamEvents` and `openSession` (fetch, apiKey, headers, serviceVersion), and how they
   * read events (`strict`, `unknownEvents`).
   */
  readonly transport: Readonly<TransportOptions & EventReadingOptions>;
  /**
   * Calls one operation and returns its success body (parsed JSON, or as `readAs` says), or throws the `ApiError`
   * family, `ApiConnectionError`, `ApiTimeoutError` or `ApiUserAbortError`. Retries re-issue the whole call, so the
   * body is sent again: a POST or PATCH only when the answer allows it or nothing was sent (see `isRetryable`); a
   * stream body, which cannot be sent twice, never. An event stream's items must be read to the end or left with
   * `break` (which closes the connection).
   */
  request<M extends HttpMethod, P extends ClientPathsWithMethod<Client<Paths>, M>, I extends Init<Paths, M, P>>(
    method: M,
    path: P,
    ...init: InitArgs<I>
  ): Promise<RequestResult<Paths, M, P, I>>;
  /** The absolute URL of a path template with percent-encoded path parameters and a query string. */
  url(path: string, params?: UrlParams): string;
}

/** What `request` reads from its init; the other members go to `fetch` as they are. */
type RequestArgs = CallOptions &
  OperationMedia &
  Omit<RequestInit, 'body' | 'headers' | 'signal'> & {
    params?: UrlParams & { header?: HeadersOptions | undefined; cookie?: Record<string, unknown> | undefined };
    body?: unknown;
    headers?: HeadersOptions | undefined;
    /** The operation's security schemes, by name; absent: the API key as a bearer token, as the core is set up. */
    security?: readonly string[] | undefined;
  };

/**
 * The operation's cookie parameters as a `Cookie` header (in their styles, values percent-encoded) after the
 * credential's cookie `placed` (an API key `in: cookie`), or none.
 */
function cookieHeader(
  cookies: Record<string, unknown> | undefined,
  styles: ParameterStyles | undefined,
  placed: string | undefined,
): { Cookie: string } | undefined {
  if (cookies === undefined) return undefined;
  const text = cookieText(cookies, styles?.cookie);
  if (text === '') return undefined;
  return { Cookie: placed === undefined ? text : `${placed}; ${text}` };
}

/**
 * The operation's header parameters, each array or object value written in its style (`simple`); other values as
 * they are (`null` and `undefined` then remove the header, as in `headers`).
 */
function headerParams(
  header: HeadersOptions | undefined,
  styles: ParameterStyles | undefined,
): HeadersOptions | undefined {
  if (header === undefined || header instanceof Headers || Array.isArray(header)) return header;
  const structured = (value: unknown) => typeof value === 'object' && value !== null;
  // Most calls pass plain strings (the `Service-Version` header): sent as they are.
  if (styles?.header === undefined && !Object.values(header).some(structured)) return header;
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(header)) {
    values[name] = value === undefined || value === null ? value : headerValue(value, styles?.header?.[name]);
  }
  return values as HeadersOptions;
}

/** Builds a client core over the spec's openapi-typescript `paths` type. */
export function createCore<Paths extends {}>(options: CoreOptions): Core<Paths> {
  const resolved: ResolvedCoreOptions = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    username: options.username,
    password: options.password,
    securitySchemes: options.securitySchemes,
    fetch: options.fetch ?? defaultFetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    serviceVersion: options.serviceVersion,
    defaultHeaders: options.defaultHeaders ?? {},
    retry: options.retry,
    strict: options.strict,
    unknownEvents: options.unknownEvents,
    responseValidator: options.responseValidator,
  };
  // Fixed for the client's life: the key and version unless the default headers set them, then the defaults.
  const headers = mergeHeaders(
    {},
    resolved.apiKey === undefined ? undefined : { Authorization: `Bearer ${resolved.apiKey}` },
    resolved.serviceVersion === undefined ? undefined : { 'Service-Version': resolved.serviceVersion },
    resolved.defaultHeaders,
  );
  const schemes = options.securitySchemes ?? {};
  const jsonHeaders = mergeHeaders({ 'content-type': 'application/json' }, headers);
  // The same without the bearer token, for calls that name their security schemes.
  const anonymous = mergeHeaders(
    {},
    resolved.serviceVersion === undefined ? undefined : { 'Service-Version': resolved.serviceVersion },
    resolved.defaultHeaders,
  );
  const jsonAnonymous = mergeHeaders({ 'content-type': 'application/json' }, anonymous);
  const send = resolved.fetch;
  /** The exchange of calls without other `RequestInit` members (most calls): made once. */
  const plain = fetchExchange(send);

  /**
   * One attempt: a fresh request with its own timeout, its outcome turned into data (checked by `responseValidator`
   * when one is given) or one of our errors; `route` is the method and path template.
   */
  async function attempt(
    route: readonly [string, string],
    url: string,
    outgoing: Outgoing,
    extra: RequestInit,
    call: CallOptions,
    readAs: ReadAs,
  ): Promise<unknown> {
    const timeoutMs = call.timeoutMs ?? resolved.timeoutMs;
    try {
      const exchange = Object.keys(extra).length === 0 ? plain : fetchExchange(send, extra);
      const answer = await exchange(url, outgoing, { signal: call.signal, timeoutMs }, readAs);
      if (answer.status < 200 || answer.status > 299) {
        throw errorFromResponse(answer.status, parseErrorBody(answer.text), answer.headers());
      }
      if (readAs !== 'json') return readAs === 'text' ? answer.text : answer.data;
      const data: unknown = answer.text === '' ? undefined : JSON.parse(answer.text);
      const validator = resolved.responseValidator?.(route[0], route[1], answer.status);
      return validator === undefined ? data : assertValid(validator, data);
    } catch (error) {
      if (error instanceof CasiError) throw error;
      if (call.signal?.aborted) throw new ApiUserAbortError();
      if (isTimeout(error)) throw new ApiTimeoutError(`Request timed out after ${timeoutMs} ms.`);
      if (error instanceof SyntaxError) throw new CasiError('The response body is not valid JSON.', { cause: error });
      throw new ApiConnectionError(undefined, { cause: error });
    }
  }

  return {
    raw: createClient<PathsWithSentHeaders<Paths>>({
      baseUrl: resolved.baseUrl,
      fetch: resolved.fetch,
      headers,
      pathSerializer: safePathSerializer,
    }),
    options: resolved,
    transport: {
      fetch: options.fetch,
      apiKey: resolved.apiKey,
      headers:
        resolved.serviceVersion === undefined
          ? resolved.defaultHeaders
          : { ...resolved.defaultHeaders, 'Service-Version': resolved.serviceVersion },
      serviceVersion: resolved.serviceVersion,
      strict: resolved.strict,
      unknownEvents: resolved.unknownEvents,
    },
    request(method, path, ...args) {
      const {
        params,
        body,
        headers: extra,
        signal,
        maxRetries,
        timeoutMs,
        security,
        contentType,
        readAs = 'json',
        styles,
        ...rest
      } = (args[0] ?? {}) as RequestArgs;
      const placed = security === undefined ? undefined : placeCredentials(security, schemes, resolved);
      let url: string;
      try {
        const query = placed === undefined ? params?.query : { ...params?.query, ...placed.query };
        url = buildUrl(resolved.baseUrl, path as string, { ...params, query }, styles);
      } catch (error) {
        return Promise.reject(error);
      }
      /** Sends the call with its body as JSON, or as `encoded` (a body of another media type). */
      const send = (encoded: EncodedBody | undefined): Promise<never> => {
        const json = body !== undefined && encoded === undefined;
        const base = placed === undefined ? (json ? jsonHeaders : headers) : json ? jsonAnonymous : anonymous;
        const cookie = cookieHeader(params?.cookie, styles, placed?.headers.Cookie);
        const header = headerParams(params?.header, styles);
        const media = encoded?.contentType === undefined ? undefined : { 'content-type': encoded.contentType };
        const outgoing: Outgoing = {
          method: method.toUpperCase(),
          headers:
            extra === undefined &&
            params?.header === undefined &&
            cookie === undefined &&
            placed === undefined &&
            media === undefined
              ? base
              : mergeHeaders(base, media, placed?.headers, extra, header, cookie),
          body: encoded !== undefined ? encoded.body : json ? JSON.stringify(body) : undefined,
        };
        const call: CallOptions = { signal, timeoutMs };
        return withRetry(() => attempt([method, path as string], url, outgoing, rest, call, readAs), {
          ...resolved.retry,
          maxRetries: encoded?.once ? 0 : (maxRetries ?? resolved.maxRetries),
          idempotent: !NOT_IDEMPOTENT.has(outgoing.method),
          signal,
        }) as Promise<never>;
      };
      if (body === undefined || contentType === undefined || contentType === 'application/json') return send(undefined);
      // Loaded on the first body of another media type, so that a page sending only JSON leaves the encoders out.
      const refuse = (problem: string) => new CasiError(problem);
      return import('./body-encoding.js').then(({ encodeBody }) => send(encodeBody(body, contentType, refuse)));
    },
    url: (path, params) => buildUrl(resolved.baseUrl, path, params),
  };
}

/**
 * `base` (lower-case names) with each source's headers set over it, later ones winning, names compared without
 * case; a `null` or `undefined` value removes the header, an array sets a comma-separated list.
 */
function mergeHeaders(
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

/** An error answer's body: its JSON, else its text; `undefined` when empty. */
function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
