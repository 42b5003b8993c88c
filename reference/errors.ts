/** The service's error model: `ServiceError` carries an `Error.code` of the spec's table, its status and body. */
import { type ErrorCode, errorCodes } from '../generated/src/types.gen.js';

/** The `Error` body of the spec (`{code, transient, message, data?}`). */
export interface ServiceErrorBody {
  readonly code: string;
  readonly transient: boolean;
  readonly message: string;
  readonly data?: unknown;
}

/** One problem of an `invalid_request` error, as the HTTP layer reports schema failures. */
export interface RequestProblem {
  readonly in: 'path' | 'query' | 'header' | 'body';
  readonly pointer: string;
  readonly message: string;
}

/**
 * An error the service answers with. `status` must be the one the code table gives `code`; `transient` comes from
 * the table. `headers` are for the HTTP layer (e.g. `Retry-After`).
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly transient: boolean;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly data?: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    const entry = errorCodes[code];
    if (entry.status !== status) throw new TypeError(`ServiceError: ${code} is ${entry.status}, not ${status}`);
    this.transient = entry.transient;
  }

  /** The answer's body. */
  toBody(): ServiceErrorBody {
    const body = { code: this.code, transient: this.transient, message: this.message };
    return this.data === undefined ? body : { ...body, data: this.data };
  }
}

/** A `ServiceError` whose status is looked up in the code table. */
export function serviceError(
  code: ErrorCode,
  message: string,
  data?: unknown,
  headers?: Readonly<Record<string, string>>,
): ServiceError {
  return new ServiceError(errorCodes[code].status, code, message, data, headers);
}

/** 404 `not_found` for a resource of the caller's organisation that does not exist (or belongs to another). */
export function notFound(kind: string, id: string): ServiceError {
  return serviceError('not_found', `No ${kind} ${id} exists.`);
}

/** 400 `invalid_request` listing each problem. */
export function invalidRequest(problems: readonly RequestProblem[]): ServiceError {
  const first = problems[0];
  const message =
    first === undefined
      ? 'The request is invalid.'
      : `Invalid ${first.in} at ${first.pointer || '/'}: ${first.message}.`;
  return serviceError('invalid_request', message, problems);
}
