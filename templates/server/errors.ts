/** The server's error model: `HttpError` carries a status and the service's `Error` body; `errorBody` builds one. */

/** Where a request problem was found, as reported in the `data` of an `invalid_request` answer. */
export type RequestPart = 'path' | 'query' | 'header' | 'cookie' | 'body';

/** One problem of an `invalid_request` answer: the request part, a JSON pointer into it and a message. */
export interface RequestProblem {
  readonly in: RequestPart;
  readonly pointer: string;
  readonly message: string;
}

/** The body of every error answer (the `Error` component schema). */
export interface ErrorBody {
  readonly code: string;
  readonly transient: boolean;
  readonly message: string;
  readonly data?: unknown;
}

/** Options of `HttpError` and `errorBody`: `transient` defaults to false, `headers` are added to the answer. */
export interface HttpErrorOptions {
  readonly transient?: boolean;
  readonly data?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Builds an `Error` body; `data` is present only when given. */
export function errorBody(code: string, message: string, options: HttpErrorOptions = {}): ErrorBody {
  const body: { code: string; transient: boolean; message: string; data?: unknown } = {
    code,
    transient: options.transient ?? false,
    message,
  };
  if (options.data !== undefined) body.data = options.data;
  return body;
}

/** An error answer: throw it from `authenticate` or a handler and the runtime sends `status` with `body`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  /** The `Error` body sent to the client. */
  readonly body: ErrorBody;
  /**
   * Extra response headers (e.g. `Retry-After`, `Allow`); a 401 carries `WWW-Authenticate: Bearer` unless given
   * another (RFC 9110: a 401 names the scheme it wants).
   */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: HttpErrorOptions = {},
  ) {
    super(message);
    this.body = errorBody(code, message, options);
    const headers = options.headers ?? {};
    const challenged = status !== 401 || Object.keys(headers).some((name) => name.toLowerCase() === 'www-authenticate');
    this.headers = challenged ? headers : { ...headers, 'www-authenticate': 'Bearer' };
  }
}

/** A 400 `invalid_request` naming every problem; its message is the first problem in words. */
export function invalidRequest(problems: readonly RequestProblem[]): HttpError {
  const first = problems[0];
  const message = first === undefined ? 'The request is invalid.' : describeProblem(first);
  return new HttpError(400, 'invalid_request', message, { data: problems });
}

/**
 * 404 `not_found` for a path whose parameters break their schemas: such a path names no resource, as one whose
 * well-formed id names nothing. `data` lists the problems, as `invalidRequest` does.
 */
export function pathNamesNothing(problems: readonly RequestProblem[]): HttpError {
  const first = problems[0];
  const message = `${first === undefined ? '' : `${describeProblem(first)} `}No resource has this path.`;
  return new HttpError(404, 'not_found', message, { data: problems });
}

const PART_LABEL: Readonly<Record<RequestPart, string>> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header',
  cookie: 'cookie',
  body: 'body',
};

/** One problem as a sentence: `Invalid query parameter limit: must be integer.` or `Invalid body at /a: …`. */
export function describeProblem(problem: RequestProblem): string {
  const { pointer } = problem;
  let where = PART_LABEL[problem.in];
  if (pointer !== '') {
    if (problem.in === 'body') where += ` at ${pointer}`;
    else where += ` ${pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~')}`;
  }
  const text = problem.message.endsWith('.') ? problem.message : `${problem.message}.`;
  return `Invalid ${where}: ${text}`;
}
