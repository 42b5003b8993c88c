/**
 * The REST core of a client: typed calls (auth and version headers, timeouts, retries, errors) sent with `fetch`
 * (the given one, else the global one), and an openapi-fetch client with the same headers as `raw` (loaded on first use).
 */

import type { Client, ClientPathsWithMethod, HeadersOptions, ParamsOption } from 'openapi-fetch';
import { assertValid } from '../shared/errors.js';
import type { Validator } from '../shared/validation.js';
import { ApiPromise } from './api-promise.js';
import type { BinaryBody, EncodedBody } from './body-encoding.js';
import { environmentVariable } from './environment.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import type { EventReadingOptions } from './event-reading.js';
import { type Answer, fetchExchange, isTimeout, type Outgoing, type ReadAs } from './exchange.js';
import type { HookOptions, LogLevel } from './observe.js';
import { DEFAULT_WRITERS, type ParameterWriters } from './parameter-defaults.js';
import { lazyRawClient } from './raw-client.js';
import { type RetryPolicy, withRetry } from './retry.js';
import { placeCredentials, type SecuritySchemes } from './security.js';
import { type CallHeaders, defaultFetch, type FetchLike, mergeHeaders, type TransportOptions } from './transport.js';
import { type UrlParams, urlWith } from './url.js';

/** HTTP methods as openapi-fetch names them. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/**
 * Options of `createCore`; the generated client passes `serviceVersion`. `strict` and `unknownEvents` say how the
 * events of every stream and session are read (see `EventReadingOptions`: by default, tolerantly).
 */
export interface CoreOptions extends EventReadingOptions, HookOptions {
  /** The service's base address, e.g. `https://api.example.com` (default: the `CASI_BASE_URL` environment variable). */
  baseUrl?: string | undefined;
  /**
   * The token or API key (default: the `CASI_API_KEY` environment variable): sent as each operation's security
   * schemes say (`Authorization: Bearer <apiKey>` for a bearer scheme, its header, query member or cookie for an API
   * key), or as a bearer token where the client knows no schemes. Omit in browsers; use the conversation token for
   * events.
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
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
}

/** Per-call options accepted next to `params`, `body`, `headers` and the other `RequestInit` members. */
export interface CallOptions {
  /** Headers of this call, set over the client's (names compared without case); `null` removes one. */
  headers?: CallHeaders | undefined;
  signal?: AbortSignal | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
}

/**
 * What the generated methods tell `request` of an operation, from the spec: the request media type (default
 * `application/json`), how to read a success answer (default `json`), and, where a parameter is not in its
 * location's default style, how its parameters are written (`styledWriters(styles)`, which only such clients load).
 */
export interface OperationMedia {
  contentType?: string | undefined;
  readAs?: ReadAs | undefined;
  writers?: ParameterWriters | undefined;
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

/** The operation at `P` and `M` of `Paths`, as openapi-typescript writes it. */
type Operation<Paths extends {}, M extends HttpMethod, P> = Paths[P & keyof Paths][M & keyof Paths[P & keyof Paths]];

/**
 * The init of a call: the operation's `params` and `body` (each required when the spec requires it) and the
 * `RequestInit` members; `undefined` too when nothing in it is required.
 */
type Init<Paths extends {}, M extends HttpMethod, P> = OptionalInit<
  ParamsOption<Operation<Paths, M, P>> &
    BodyOption<Operation<Paths, M, P>> &
    Omit<RequestInit, 'body' | 'headers'> & { headers?: HeadersOptions }
>;

/** `I`, or `I | undefined` when it has no required member. */
type OptionalInit<I> = Record<never, never> extends I ? I | undefined : I;

/**
 * The `body` of a call as the operation's request body declares it: the content of any of its media types, or bytes
 * (`BinaryBody`, which a binary media type sends as they are); none when the operation has no request body. Taken
 * from the content itself, not through openapi-fetch's `Writable`, which forbids a member whose only value is `null`.
 */
type BodyOption<Op> = [RequestContent<Op>] extends [never]
  ? { body?: never }
  : Op extends { requestBody: unknown }
    ? { body: RequestContent<Op> | BinaryBody }
    : { body?: RequestContent<Op> | BinaryBody | undefined };

/**
 * The schemas of an operation's request body, one per media type (`never` without a request body); indexed, not
 * inferred, so that `any` stays `any`.
 */
type RequestContent<Op> = MediaValues<NonNullable<Op[keyof Op & 'requestBody']>>;

/** The values of a request body's content map. */
type MediaValues<B> = B extends { content: unknown } ? B['content'][keyof B['content']] : never;

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

/**
 * The success body of an operation (`undefined` when it has none), as the spec's types declare it: openapi-fetch's
 * `MethodResponse` passes it through `Readable`, which turns tuples (`prefixItems`) into arrays. `_I` (the call's
 * init) is kept for callers that name it.
 */
export type SuccessData<
  Paths extends {},
  M extends HttpMethod,
  P extends ClientPathsWithMethod<Client<Paths>, M>,
  _I = unknown,
> = [SuccessBody<Paths[P & keyof Paths][M & keyof Paths[P & keyof Paths]]>] extends [never]
  ? undefined
  : SuccessBody<Paths[P & keyof Paths][M & keyof Paths[P & keyof Paths]]>;

/** The status codes of success answers, as openapi-typescript writes them. */
type OkStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | '2XX';

/** The bodies of an operation's success answers, each its JSON content (see `JsonContent`). */
type SuccessBody<Operation> = Operation extends { responses: unknown }
  ? NonNullable<SuccessContent<Operation['responses']>>
  : never;

/** The JSON content of the success answers of a `responses` map (indexed, not inferred, so that `any` stays `any`). */
type SuccessContent<R> = { [S in OkStatus & keyof R]: JsonContent<R[S]> }[OkStatus & keyof R];

/** An answer's JSON content; its whole content map when it has no JSON media type (as openapi-fetch reads it). */
type JsonContent<Answer> = Answer extends { content?: unknown } ? MediaContent<Answer['content']> : never;

/** The JSON member of a content map, or the whole map when it has none. */
type MediaContent<C> =
  C extends Record<string, unknown> ? ([C[keyof C & JsonMedia]] extends [never] ? C : C[keyof C & JsonMedia]) : C;

/**
 * The media types `request` reads (it parses the body as JSON), with or without parameters (`application/json;
 * charset=utf-8`): an operation's other ones are not its data.
 */
type JsonMedia =
  | `${string}/json`
  | `${string}/${string}+json`
  | `${string}/json;${string}`
  | `${string}/${string}+json;${string}`;

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
  readonly transport: Readonly<
    TransportOptions & { headers?: Readonly<Record<string, string>> | undefined } & EventReadingOptions
  >;
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
  ): ApiPromise<RequestResult<Paths, M, P, I>>;
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
  writers: ParameterWriters,
  placed: string | undefined,
): { Cookie: string } | undefined {
  if (cookies === undefined) return undefined;
  const text = writers.cookie(cookies);
  if (text === '') return undefined;
  return { Cookie: placed === undefined ? text : `${placed}; ${text}` };
}

/**
 * The operation's header parameters, each array or object value written in its style (`simple`); other values as
 * they are (`null` and `undefined` then remove the header, as in `headers`).
 */
function headerParams(
  header: HeadersOptions | undefined,
  writers: ParameterWriters | undefined,
): HeadersOptions | undefined {
  if (header === undefined || header instanceof Headers || Array.isArray(header)) return header;
  const structured = (value: unknown) => typeof value === 'object' && value !== null;
  // Most calls pass plain strings (the `Service-Version` header): sent as they are.
  if (writers === undefined && !Object.values(header).some(structured)) return header;
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(header)) {
    values[name] = value === undefined || value === null ? value : (writers ?? DEFAULT_WRITERS).header(name, value);
  }
  return values as HeadersOptions;
}

/** Builds a client core over the spec's openapi-typescript `paths` type. */
export function createCore<Paths extends {}>(options: CoreOptions): Core<Paths> {
  const baseUrl = options.baseUrl ?? environmentVariable('CASI_BASE_URL');
  if (baseUrl === undefined) {
    throw new CasiError(
      'No base URL: pass `baseUrl` (and `apiKey`) to createClient, or set the CASI_BASE_URL (and CASI_API_KEY) environment variables.',
    );
  }
  const resolved: ResolvedCoreOptions = {
    baseUrl,
    apiKey: options.apiKey ?? environmentVariable('CASI_API_KEY'),
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
    onRequest: options.onRequest,
    onResponse: options.onResponse,
    logLevel: options.logLevel,
    logger: options.logger,
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
  const logLevel = (resolved.logLevel ?? environmentVariable('CASI_LOG') ?? 'off') as LogLevel;
  // Loaded when the client has a hook or logs, so that other pages leave the observer out.
  const observing =
    resolved.onRequest === undefined && resolved.onResponse === undefined && logLevel === 'off'
      ? undefined
      : import('./observe.js').then(({ observer }) =>
          observer({ ...resolved, logLevel }, ...credentialPlaces(schemes)),
        );
  /** The exchange of calls without other `RequestInit` members (most calls): made once. */
  const plain = fetchExchange(send);

  /**
   * One attempt (`n` from 0): a fresh request with its own timeout, its outcome turned into data (checked by
   * `responseValidator` when one is given) or one of our errors; `route` is the method and path template. A success
   * answer is handed to `received` first.
   */
  async function attempt(
    route: readonly [string, string],
    url: string,
    outgoing: Outgoing,
    extra: RequestInit,
    call: CallOptions,
    readAs: ReadAs,
    n: number,
    received: (answer: Answer) => void,
  ): Promise<unknown> {
    const timeoutMs = call.timeoutMs ?? resolved.timeoutMs;
    const observe = observing === undefined ? undefined : await observing;
    const finish = observe?.({ method: outgoing.method, url, headers: outgoing.headers, attempt: n + 1 });
    let answer: Answer;
    try {
      const exchange = Object.keys(extra).length === 0 ? plain : fetchExchange(send, extra);
      answer = await exchange(url, outgoing, { signal: call.signal, timeoutMs }, readAs);
    } catch (error) {
      finish?.(undefined, error);
      throw attemptFailure(error, call.signal, timeoutMs);
    }
    finish?.(answer.status);
    if (answer.status < 200 || answer.status > 299) {
      throw errorFromResponse(answer.status, parseErrorBody(answer.text), answer.headers());
    }
    received(answer);
    if (readAs !== 'json') return readAs === 'text' ? answer.text : answer.data;
    let data: unknown;
    try {
      data = answer.text === '' ? undefined : JSON.parse(answer.text);
    } catch (error) {
      throw new CasiError('The response body is not valid JSON.', { cause: error });
    }
    const validator = resolved.responseValidator?.(route[0], route[1], answer.status);
    return validator === undefined ? data : assertValid(validator, data);
  }

  /** Sends one call: its URL, headers and body built, the attempts made with retries. */
  function call(method: string, path: string, init: RequestArgs, received: (answer: Answer) => void): Promise<unknown> {
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
      writers,
      ...rest
    } = init;
    const placed = security === undefined ? undefined : placeCredentials(security, schemes, resolved);
    let url: string;
    try {
      const query = placed === undefined ? params?.query : { ...params?.query, ...placed.query };
      url = urlWith(resolved.baseUrl, path, { ...params, query }, writers ?? DEFAULT_WRITERS);
    } catch (error) {
      return Promise.reject(error);
    }
    /** Sends the call with its body as JSON, or as `encoded` (a body of another media type). */
    const sendCall = (encoded: EncodedBody | undefined): Promise<unknown> => {
      const json = body !== undefined && encoded === undefined;
      const base = placed === undefined ? (json ? jsonHeaders : headers) : json ? jsonAnonymous : anonymous;
      const cookie = cookieHeader(params?.cookie, writers ?? DEFAULT_WRITERS, placed?.headers.Cookie);
      const header = headerParams(params?.header, writers);
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
      const options: CallOptions = { signal, timeoutMs };
      return withRetry((n) => attempt([method, path], url, outgoing, rest, options, readAs, n, received), {
        ...resolved.retry,
        maxRetries: encoded?.once ? 0 : (maxRetries ?? resolved.maxRetries),
        idempotent: !NOT_IDEMPOTENT.has(outgoing.method),
        signal,
      });
    };
    if (body === undefined || contentType === undefined || contentType === 'application/json')
      return sendCall(undefined);
    // Loaded on the first body of another media type, so that a page sending only JSON leaves the encoders out.
    const refuse = (problem: string) => new CasiError(problem);
    return import('./body-encoding.js').then(({ encodeBody }) => sendCall(encodeBody(body, contentType, refuse)));
  }

  return {
    raw: lazyRawClient<PathsWithSentHeaders<Paths>>({ baseUrl: resolved.baseUrl, fetch: resolved.fetch, headers }),
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
      const init = (args[0] ?? {}) as RequestArgs;
      return new ApiPromise((received) => call(method, path as string, init, received)) as never;
    },
    url: (path, params) => urlWith(resolved.baseUrl, path, params ?? {}, DEFAULT_WRITERS),
  };
}

/** The error an attempt without an answer ends with: ours as it is, else abort, timeout or connection error. */
function attemptFailure(error: unknown, signal: AbortSignal | undefined, timeoutMs: number): unknown {
  if (error instanceof CasiError) return error;
  if (signal?.aborted) return new ApiUserAbortError();
  if (isTimeout(error)) return new ApiTimeoutError(`Request timed out after ${timeoutMs} ms.`);
  return new ApiConnectionError(undefined, { cause: error });
}

/** Where credentials travel: the headers (lower case) and query members that `onRequest` and the logs must not show. */
function credentialPlaces(schemes: SecuritySchemes): [string[], string[]] {
  const headers = ['authorization', 'proxy-authorization', 'cookie'];
  const query: string[] = [];
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== 'apiKey') continue;
    if (scheme.in === 'header') headers.push(scheme.name.toLowerCase());
    if (scheme.in === 'query') query.push(scheme.name);
  }
  return [headers, query];
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
