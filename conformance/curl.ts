/** A request as a `curl` command a user can paste into a POSIX shell to send it again. */
import { urlOf, type WireRequest } from './wire.js';

/** `value` quoted for a POSIX shell: in single quotes, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The `curl` command that sends `request` to `baseUrl` (WebSocket handshakes are sent as their HTTP upgrade). */
export function curlCommand(baseUrl: string, request: WireRequest): string {
  const parts = ['curl', '-i', '-X', request.method, shellQuote(urlOf(baseUrl, request).href)];
  for (const [name, value] of Object.entries(request.headers ?? {})) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}
