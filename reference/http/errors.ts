/** The HTTP layer's one error rule: a domain `ServiceError` becomes the runtime's `HttpError`; the rest is a 500. */
import { HttpError } from '../../generated/src/server.gen.js';
import { ServiceError } from '../errors.js';

/** The `HttpError` that answers `error`: same status, code, message, `transient`, `data` and headers. */
export function toHttpError(error: ServiceError): HttpError {
  return new HttpError(error.status, error.code, error.message, {
    transient: error.transient,
    ...(error.data === undefined ? {} : { data: error.data }),
    headers: error.headers,
  });
}

/**
 * Awaits a service call, rethrowing a `ServiceError` as `HttpError`. Other errors pass through unchanged, so the
 * runtime answers 500 `internal_error` without their message and logs them.
 */
export async function callService<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asHttpError(error);
  }
}

/** `error` as the runtime should see it: a `ServiceError` as its `HttpError`, anything else unchanged. */
export function asHttpError(error: unknown): unknown {
  return error instanceof ServiceError ? toHttpError(error) : error;
}
