/** Turns anything thrown while answering into an `Error` answer; unknown errors become a 500 that leaks nothing. */
import { HttpError } from './errors.js';

/**
 * The error to send for a thrown value; `internal` when it hides the real error (which must be logged), `aborted`
 * when the client closed the connection before its body arrived (nothing reaches it; worth an info line at most).
 */
export interface ErrorAnswer {
  readonly error: HttpError;
  readonly internal: boolean;
  readonly aborted?: boolean;
}

/** Fastify's own request errors (their meaning is known), by code. */
const FASTIFY_ERRORS: Readonly<Record<string, (bodyLimit: number) => HttpError>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new HttpError(400, 'malformed_json', 'The body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new HttpError(400, 'malformed_json', 'The body is empty but Content-Type is application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: (bodyLimit) =>
    new HttpError(413, 'payload_too_large', `The body exceeds ${bodyLimit} bytes.`),
  FST_ERR_BAD_URL: () =>
    new HttpError(400, 'invalid_request', 'The path has invalid percent-encoding.', {
      data: [{ in: 'path', pointer: '', message: 'must be valid percent-encoded UTF-8' }],
    }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new HttpError(400, 'invalid_request', 'The body is not as long as Content-Length says.', {
      data: [{ in: 'header', pointer: '/content-length', message: 'must be the length of the body' }],
    }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new HttpError(400, 'invalid_request', 'Content-Type must be application/json.', {
      data: [{ in: 'header', pointer: '/content-type', message: 'must be application/json' }],
    }),
};

/** Maps a thrown value: `HttpError` as is, Fastify's request errors by code (other `FST_` 4xx keep status and
 * message), anything else to 500 `internal_error`. */
export function toErrorAnswer(thrown: unknown, bodyLimit: number): ErrorAnswer {
  if (thrown instanceof HttpError) return { error: thrown, internal: false };
  const { code, statusCode, message } = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as {
    code?: unknown;
    statusCode?: unknown;
    message?: unknown;
  };
  if (code === 'ECONNRESET' || code === 'ECONNABORTED') {
    const error = new HttpError(400, 'invalid_request', 'The connection closed before the body arrived.');
    return { error, internal: false, aborted: true };
  }
  const known = typeof code === 'string' && Object.hasOwn(FASTIFY_ERRORS, code) ? FASTIFY_ERRORS[code] : undefined;
  if (known !== undefined) return { error: known(bodyLimit), internal: false };
  const fastify4xx =
    typeof code === 'string' && code.startsWith('FST_') && typeof statusCode === 'number' && statusCode >= 400;
  if (fastify4xx && statusCode < 500 && typeof message === 'string') {
    return { error: new HttpError(statusCode, 'invalid_request', message), internal: false };
  }
  return {
    error: new HttpError(500, 'internal_error', 'Internal error; retry later.', { transient: true }),
    internal: true,
  };
}
