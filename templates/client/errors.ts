/** The client's one error model: an `ApiError` class per status family, plus connection, timeout and abort errors. */
import { CasiError } from '../shared/errors.js';

export { CasiError };

/** The `Error` body the service sends with every error answer. */
export interface ErrorBody<Code extends string = string> {
  code: Code;
  transient: boolean;
  message: string;
  data?: unknown;
}

/**
 * The service answered with a non-2xx status. `Code` lets a generated client narrow `code` to the spec's error codes
 * (`ApiError<'not_found' | ... | (string & {})>`); a body without the `Error` shape gives `code` `unknown_error`.
 */
export class ApiError<Code extends string = string> extends CasiError {
  override readonly name: string = 'ApiError';
  /** What the body said about retrying: `true`/`false`, or `undefined` when the body did not say. */
  readonly transient: boolean | undefined;
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    transient: boolean | undefined,
    readonly data: unknown,
    readonly headers: Headers,
  ) {
    super(message);
    this.transient = transient;
  }
}

/** 400: the request is malformed or breaks the schema. */
export class BadRequestError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'BadRequestError';
}
/** 401: the API key or token is missing, unknown or expired. */
export class AuthenticationError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the key lacks permission for the resource. */
export class PermissionDeniedError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: the resource does not exist. */
export class NotFoundError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'NotFoundError';
}
/** 405: the endpoint exists but not with this method. */
export class MethodNotAllowedError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'MethodNotAllowedError';
}
/** 409: the request conflicts with the resource's state. */
export class ConflictError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'ConflictError';
}
/** 413: the body is larger than the service accepts. */
export class PayloadTooLargeError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'PayloadTooLargeError';
}
/** 418: the service's fixed teapot answer. */
export class TeapotError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'TeapotError';
}
/**
 * 429: rate limited; retried automatically after `Retry-After` plus jitter, and thrown at once when the server asks
 * for longer than `maxRetryAfterMs`.
 */
export class RateLimitError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'RateLimitError';
}
/** 5xx: a server-side failure; retried automatically. */
export class InternalServerError<Code extends string = string> extends ApiError<Code> {
  override readonly name: string = 'InternalServerError';
}

/** No usable answer came back: the network failed, the connection dropped or the stream broke. */
export class ApiConnectionError extends CasiError {
  override readonly name: string = 'ApiConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request took longer than `timeoutMs`. */
export class ApiTimeoutError extends ApiConnectionError {
  override readonly name: string = 'ApiTimeoutError';
  constructor(message = 'Request timed out.') {
    super(message);
  }
}

/** The caller's `AbortSignal` cancelled the request, a retry wait or a reconnect. */
export class ApiUserAbortError extends CasiError {
  override readonly name: string = 'ApiUserAbortError';
  constructor(message = 'Request was aborted.') {
    super(message);
  }
}

/**
 * The constructor of `ApiError<Code>`, without the static members of `Error` (Node's types add some): the type a
 * generated client gives its `CasiApiError`, so that its declarations need no `@types/node`.
 */
export interface ApiErrorClass<Code extends string = string> {
  new (
    status: number,
    code: Code,
    message: string,
    transient: boolean | undefined,
    data: unknown,
    headers: Headers,
  ): ApiError<Code>;
  readonly prototype: ApiError<Code>;
}

/** The class for each status with its own error class; 5xx is handled by range. */
const STATUS_CLASSES: Readonly<Record<number, ApiErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  413: PayloadTooLargeError,
  418: TeapotError,
  429: RateLimitError,
};

/** The code given to an error whose body is not the service's `Error` shape. */
export const UNKNOWN_ERROR_CODE = 'unknown_error';

/** True when `body` has the `Error` shape (`code`, `transient`, `message`). */
export function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { code, transient, message } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof transient === 'boolean' && typeof message === 'string';
}

/** Picks the error class for `status` and fills it from `body` (parsed JSON, text, or nothing). */
export function errorFromResponse(status: number, body: unknown, headers: Headers = new Headers()): ApiError {
  const ErrorClass = STATUS_CLASSES[status] ?? (status >= 500 ? InternalServerError : ApiError);
  if (isErrorBody(body)) {
    return new ErrorClass(status, body.code, body.message, body.transient, body.data, headers);
  }
  return new ErrorClass(status, UNKNOWN_ERROR_CODE, describeBody(status, body), undefined, body, headers);
}

function describeBody(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim() !== '') return body;
  if (body === undefined || body === null || body === '') return `${status} status code (no body)`;
  return JSON.stringify(body);
}

/** A client message's text is longer than the service accepts; thrown before anything is sent. */
export class MessageTooLongError extends CasiError {
  override readonly name: string = 'MessageTooLongError';
  constructor(
    readonly length: number,
    readonly limit: number,
  ) {
    super(`The message text is ${length} characters long; the limit is ${limit}. Nothing was sent.`);
  }
}

/** Default limit of `payload.text` in client events. */
export const DEFAULT_MAX_TEXT_LENGTH = 4096;

/** Throws `MessageTooLongError` when an event's `payload.text` is longer than `limit` characters (code points). */
export function checkTextLength(event: { payload: object }, limit: number): void {
  const text = (event.payload as { text?: unknown }).text;
  if (typeof text !== 'string' || text.length <= limit) return;
  const length = [...text].length;
  if (length > limit) throw new MessageTooLongError(length, limit);
}
