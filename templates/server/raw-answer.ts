/** An `Error` answer written straight on a socket: for refusals made before Fastify has a reply to send it. */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpError } from './errors.js';

/** Writes an HTTP error answer with the `Error` body on `socket`, then ends it (the connection is not reused). */
export function writeRawError(socket: Duplex, error: HttpError): void {
  if (socket.destroyed || !socket.writable) return;
  const body = JSON.stringify(error.body);
  const lines = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
