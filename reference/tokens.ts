/**
 * Ephemeral conversation tokens: issue, resolve (expiry, replacement) and refresh, at most one active each. Only
 * the SHA-256 of a token is stored (its record's `id`): the token itself is given out once and never kept.
 */
import { createHash } from 'node:crypto';
import type { ConversationToken } from '../generated/src/types.gen.js';
import { type Clock, isoNow } from './clock.js';
import type { Notices } from './database/notices.js';
import { serviceError } from './errors.js';
import { newToken } from './ids.js';
import type { ConversationRecord, TokenRecord } from './store/records.js';
import type { Store } from './store/types.js';

/** A connection's hold on the token that opened it. */
export interface TokenHold {
  /** Aborted, with the 401 `token_expired` error as its reason, when the token is refreshed away or expires. */
  readonly signal: AbortSignal;
  /** Stops watching the token (the connection closed). */
  release(): void;
}

/** The channel on which a refresh names the token it replaced (its hash), for every process sharing the database. */
export const REPLACED_CHANNEL = 'casi_token_replaced';

/** The id a token is stored under: its SHA-256, in hex. */
export function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token just issued: the token itself (to give out once) and its stored record. */
export interface IssuedToken {
  readonly token: string;
  readonly record: TokenRecord;
}

const replacedError = () => serviceError('token_expired', 'The token was replaced by a refresh.');
const expiredError = () => serviceError('token_expired', 'The token has expired.');

/** Issues and checks tokens; callers hold the conversation's lock when they issue or refresh. */
export class TokenService {
  /** The holds of open connections, by token. */
  private readonly holds = new Map<string, Set<AbortController>>();

  /** With `notices`, a refresh ends the connections the old token opened in every process sharing the database. */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    private readonly notices: Notices | null = null,
  ) {}

  /** Starts following the refreshes of other processes (with `notices`). */
  async listen(): Promise<void> {
    await this.notices?.listen(REPLACED_CHANNEL, (id) => this.end(id, replacedError()));
  }

  /** A new active token for the conversation; it expires after the one it replaces (`after`), if any. */
  async issue(org: string, conversationId: string, after?: TokenRecord): Promise<IssuedToken> {
    const expiresAt = Math.max(
      this.clock.now() + this.ttlSeconds * 1000,
      after === undefined ? 0 : Date.parse(after.expires_at) + 1,
    );
    const token = newToken();
    const record: TokenRecord = {
      id: tokenId(token),
      created_at: isoNow(this.clock),
      org,
      conversation_id: conversationId,
      expires_at: new Date(expiresAt).toISOString(),
      replaced: false,
    };
    await this.store.tokens.put(record);
    return { token, record };
  }

  /**
   * Replaces the conversation's token: the old one fails at once, and the connections it opened are told so
   * (`hold`), in every process; the new one expires later than the old. The caller saves the new record's `id` as
   * the conversation's `token`.
   */
  async refresh(conversation: ConversationRecord): Promise<{ answer: ConversationToken; id: string }> {
    const old = await this.store.tokens.get(conversation.token);
    if (old !== undefined) await this.store.tokens.put({ ...old, replaced: true });
    const fresh = await this.issue(conversation.org, conversation.id, old);
    if (old !== undefined) {
      // Here at once; other processes sharing the database when the notice reaches them (ending twice does nothing).
      this.end(old.id, replacedError());
      await this.notices?.notify(REPLACED_CHANNEL, old.id);
    }
    return { answer: { token: fresh.token, expires_at: fresh.record.expires_at }, id: fresh.record.id };
  }

  /** The token's record; 401 `unauthorized` when unknown, 401 `token_expired` when expired or replaced. */
  async resolve(token: string): Promise<TokenRecord> {
    const record = await this.store.tokens.get(tokenId(token));
    if (record === undefined) throw serviceError('unauthorized', 'The token is not valid.');
    if (record.replaced) throw replacedError();
    if (Date.parse(record.expires_at) <= this.clock.now()) throw expiredError();
    return record;
  }

  /**
   * For a connection the token (stored as `id`) opened: a signal aborted when a refresh replaces the token or when
   * it expires.
   */
  hold(id: string, expiresAt: string): TokenHold {
    const controller = new AbortController();
    const holds = this.holds.get(id) ?? new Set<AbortController>();
    this.holds.set(id, holds);
    holds.add(controller);
    const expiry = this.clock.setTimer(Date.parse(expiresAt) - this.clock.now(), () =>
      controller.abort(expiredError()),
    );
    const release = () => {
      expiry.cancel();
      holds.delete(controller);
      if (holds.size === 0 && this.holds.get(id) === holds) this.holds.delete(id);
    };
    controller.signal.addEventListener('abort', release, { once: true });
    return { signal: controller.signal, release };
  }

  /** Aborts every hold on the token with this id. */
  private end(id: string, reason: Error): void {
    for (const controller of [...(this.holds.get(id) ?? [])]) controller.abort(reason);
  }
}
