/** Who is calling: API keys (organisation and scope) and conversation tokens, and the checks each operation needs. */
import type { ApiKey, KeyScope } from './config.js';
import { serviceError } from './errors.js';
import type { RateLimiter } from './rate-limit.js';
import type { TokenService } from './tokens.js';

/** A caller authenticated by an API key. */
export interface KeyPrincipal {
  readonly kind: 'key';
  readonly org: string;
  readonly scope: KeyScope;
}

/** A caller authenticated by a conversation token: it may only open that conversation's stream and session. */
export interface TokenPrincipal {
  readonly kind: 'token';
  readonly org: string;
  readonly conversationId: string;
  /** The token's id (its SHA-256), and when it expires: a connection it opened closes when it is refreshed away or expires. */
  readonly token: string;
  readonly expiresAt: string;
}

/** What every service method receives as `auth`. */
export type Principal = KeyPrincipal | TokenPrincipal;

/** The credentials of a request: the `Authorization` header and the `token` query parameter, as sent. */
export interface Credentials {
  readonly authorization?: string | undefined;
  readonly token?: string | undefined;
}

const BEARER = /^Bearer +(\S+) *$/i;

/** Turns credentials into a `Principal`; applies the rate limit per key or per conversation. */
export class Authenticator {
  private readonly keys: ReadonlyMap<string, ApiKey>;

  constructor(
    keys: readonly ApiKey[],
    private readonly tokens: TokenService,
    private readonly limiter: RateLimiter | null = null,
  ) {
    this.keys = new Map(keys.map((key) => [key.key, key]));
  }

  /**
   * The `Authorization` header when present, else `token`. 401 `unauthorized` when both are missing or the one
   * used is unknown; 401 `token_expired` for an expired or replaced token; 429 `rate_limited` over the limit.
   */
  async authenticate(credentials: Credentials): Promise<Principal> {
    if (credentials.authorization !== undefined || credentials.token === undefined) {
      const key = this.lookupKey(credentials.authorization);
      this.limiter?.take(`key:${key.key}`);
      return { kind: 'key', org: key.org, scope: key.scope };
    }
    const record = await this.tokens.resolve(credentials.token);
    this.limiter?.take(`conversation:${record.conversation_id}`);
    return {
      kind: 'token',
      org: record.org,
      conversationId: record.conversation_id,
      token: record.id,
      expiresAt: record.expires_at,
    };
  }

  /** The key of an `Authorization: Bearer <API_KEY>` header; 401 `unauthorized` when missing, malformed or unknown. */
  authenticateKey(header: string | undefined): KeyPrincipal {
    const { org, scope } = this.lookupKey(header);
    return { kind: 'key', org, scope };
  }

  private lookupKey(header: string | undefined): ApiKey {
    if (header === undefined) throw serviceError('unauthorized', 'Send Authorization: Bearer <API_KEY>.');
    const key = BEARER.exec(header)?.[1];
    if (key === undefined) throw serviceError('unauthorized', 'The Authorization header must be Bearer <API_KEY>.');
    const found = this.keys.get(key);
    if (found === undefined) throw serviceError('unauthorized', 'The API key is not valid.');
    return found;
  }
}

/** The key principal of a REST call; a conversation token is 401 `unauthorized` there. */
export function requireKey(principal: Principal): KeyPrincipal {
  if (principal.kind !== 'key') {
    throw serviceError('unauthorized', 'A conversation token opens only its event stream and session; use an API key.');
  }
  return principal;
}

/** The key principal of a write; a `read` key is 403 `forbidden`. */
export function requireWrite(principal: Principal): KeyPrincipal {
  const key = requireKey(principal);
  if (key.scope !== 'write') throw serviceError('forbidden', 'This API key is read-only.');
  return key;
}

/**
 * Whether `principal` may send client events on a session: a conversation token or a `write` key. A `read` key may
 * open the session and watch it; each client event it sends is answered by `server.error` `forbidden`.
 */
export function canWrite(principal: Principal): boolean {
  return principal.kind === 'token' || principal.scope === 'write';
}

/** Checks access to one conversation's stream or session; a token of another conversation is 403 `forbidden`. */
export function requireConversationAccess(principal: Principal, conversationId: string): void {
  if (principal.kind === 'token' && principal.conversationId !== conversationId) {
    throw serviceError('forbidden', 'This token belongs to another conversation.');
  }
}
