/** The address a caller used to reach this server (`Host` and protocol), for `events_url` and `session_url`. */
import type { FastifyRequest } from 'fastify';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port: nothing that could bend a URL. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * `http(s)://<Host>` as the caller sent it; when `Host` is missing or malformed, the local address the request
 * arrived on (so a forged header never ends up in a URL the service hands out).
 */
export function baseUrlOf(request: Pick<FastifyRequest, 'protocol' | 'headers' | 'socket'>): string {
  const host = request.headers.host;
  if (host !== undefined && HOST.test(host)) return `${request.protocol}://${host.toLowerCase()}`;
  const { localAddress, localPort } = request.socket;
  const address = localAddress?.includes(':') ? `[${localAddress}]` : (localAddress ?? '127.0.0.1');
  return `${request.protocol}://${address}:${localPort ?? 80}`;
}
