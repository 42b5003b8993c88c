/** HTTP/1.1 requires `Host` (RFC 9112 §3.2): a request without it is 400 in the `Error` shape. */
import type { IncomingMessage } from 'node:http';
import { invalidRequest } from './errors.js';

/** Throws 400 `invalid_request` for an HTTP/1.1 request without a `Host` header. */
export function requireHost(raw: IncomingMessage): void {
  if (raw.httpVersion !== '1.1' || raw.headers.host !== undefined) return;
  throw invalidRequest([{ in: 'header', pointer: '/host', message: 'is required in HTTP/1.1' }]);
}
