/** CORS for browser clients served from another origin: headers on every answer, and preflight answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers a browser client sends to the service. */
const ALLOWED_HEADERS = 'authorization, content-type, last-event-id, service-version';
/** Response headers a browser client may read. */
const EXPOSED_HEADERS = 'allow, retry-after';

/**
 * Allows `origin` (`'*'`: any origin, reflected so that caches vary on it). Sets the headers on the raw response,
 * so they also reach hijacked SSE answers and error answers.
 */
export function applyCors(request: IncomingMessage, response: ServerResponse, origin: string): void {
  const requestOrigin = request.headers.origin;
  if (requestOrigin === undefined) return;
  if (origin !== '*' && origin !== requestOrigin) return;
  response.setHeader('access-control-allow-origin', requestOrigin);
  response.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  response.setHeader('vary', 'Origin');
}

/** The headers of a preflight answer (`OPTIONS`) for a path that allows `methods`. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
    // HEAD, like GET, is a CORS-safelisted method: never preflighted, so not listed.
    'access-control-allow-methods': methods.filter((method) => method !== 'HEAD').join(', '),
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
