/**
 * How an operation's security schemes carry the caller's credential, from the spec's `components.securitySchemes`:
 * https://spec.openapis.org/oas/v3.1.0#security-scheme-object. A call sends a credential only where its operation
 * names a scheme for it.
 */
import type { SecurityScheme } from '../shared/security-scheme.js';

export type { SecurityScheme };

/** The spec's schemes, by name. */
export type SecuritySchemes = Readonly<Record<string, SecurityScheme>>;

/** What the caller has: a token or API key (`apiKey`), and a user name and password for basic schemes. */
export interface Credentials {
  readonly apiKey?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/** Where a credential goes: headers to add, and query members to add. */
export interface Placed {
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
}

/**
 * The credential of the first scheme of `security` (an operation's, in the spec's order) that the caller has a
 * credential for, placed as that scheme says; nothing when the operation needs none or the caller has none.
 */
export function placeCredentials(
  security: readonly string[],
  schemes: SecuritySchemes,
  credentials: Credentials,
): Placed {
  for (const name of security) {
    const scheme = schemes[name];
    if (scheme === undefined) continue;
    if (scheme.type === 'basic') {
      if (credentials.username === undefined) continue;
      const pair = `${credentials.username}:${credentials.password ?? ''}`;
      return { headers: { Authorization: `Basic ${base64(pair)}` }, query: {} };
    }
    if (credentials.apiKey === undefined) continue;
    if (scheme.type === 'bearer') return { headers: { Authorization: `Bearer ${credentials.apiKey}` }, query: {} };
    if (scheme.in === 'query') return { headers: {}, query: { [scheme.name]: credentials.apiKey } };
    if (scheme.in === 'cookie')
      return { headers: { Cookie: `${scheme.name}=${encodeURIComponent(credentials.apiKey)}` }, query: {} };
    return { headers: { [scheme.name]: credentials.apiKey }, query: {} };
  }
  return { headers: {}, query: {} };
}

/** Base64 of a string's UTF-8 bytes, in browsers and Node alike. */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
