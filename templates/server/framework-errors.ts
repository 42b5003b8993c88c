/**
 * Fastify constructor options that keep every answer in the `Error` shape, including those made before a route
 * runs: Fastify's own refusals (`frameworkErrors`: a path with invalid percent-encoding) and Node's HTTP parser's
 * (`clientErrorHandler`: a malformed request line, `Content-Length` with `Transfer-Encoding`, headers over 16 KiB,
 * slow headers). Node's bodiless 400 to an HTTP/1.1 request without `Host` is turned off (`requireHostHeader`), so
 * that `casiRoutes` answers it in the shape instead.
 */
import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { toErrorAnswer } from './error-handler.js';
import { HttpError } from './errors.js';
import { writeRawError } from './raw-answer.js';

/** Pass to `Fastify({ ...casiServerOptions(), ... })` on the instance `casiRoutes` registers on. */
export function casiServerOptions(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> & {
  http: ServerOptions;
} {
  return { frameworkErrors, clientErrorHandler, http: { requireHostHeader: false } };
}

function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const answer = toErrorAnswer(error, 0);
  if (answer.internal) request.log.error({ err: error }, 'internal error before routing');
  void reply.code(answer.error.status).headers(answer.error.headers).send(answer.error.body);
}

/** What Node's HTTP parser reports on a connection: its error code and, for parse errors, the reason. */
type ClientError = Error & { code?: string; reason?: string };

function clientErrorHandler(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  writeRawError(socket, clientErrorAnswer(error));
  socket.destroy();
}

/** The answer to a request Node's parser refused. */
export function clientErrorAnswer(error: ClientError): HttpError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'request_timeout', 'The request did not arrive in time.', { transient: true });
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, 'request_headers_too_large', 'The request headers exceed 16 KiB.');
    default: {
      const reason = typeof error.reason === 'string' && error.reason !== '' ? `: ${error.reason}` : '';
      return new HttpError(400, 'invalid_request', `The request is not valid HTTP/1.1${reason}.`);
    }
  }
}
