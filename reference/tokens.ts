/** Ephemeral conversation tokens: issue, resolve (expiry, replacement) and refresh, at most one active each. */
import type { ConversationToken } from '../generated/src/types.gen.js';
import { type Clock, isoNow } from './clock.js';
import { serviceError } from './errors.js';
import { newToken } from './ids.js';
import type { ConversationRecord, TokenRecord } from './store/records.js';
import type { Store } from './store/types.js';

/** Issues and checks tokens; callers hold the conversation's lock when they issue or refresh. */
export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** A new active token for the conversation. */
  async issue(org: string, conversationId: string): Promise<TokenRecord> {
    const record: TokenRecord = {
      id: newToken(),
      created_at: isoNow(this.clock),
      org,
      conversation_id: conversationId,
      expires_at: new Date(this.clock.now() + this.ttlSeconds * 1000).toISOString(),
      replaced: false,
    };
    await this.store.tokens.put(record);
    return record;
  }

  /** Replaces the conversation's token: the old one fails at once; the caller saves the new one as `token`. */
  async refresh(conversation: ConversationRecord): Promise<ConversationToken> {
    const old = await this.store.tokens.get(conversation.token);
    if (old !== undefined) await this.store.tokens.put({ ...old, replaced: true });
    const fresh = await this.issue(conversation.org, conversation.id);
    return { token: fresh.id, expires_at: fresh.expires_at };
  }

  /** The token's record; 401 `unauthorized` when unknown, 401 `token_expired` when expired or replaced. */
  async resolve(token: string): Promise<TokenRecord> {
    const record = await this.store.tokens.get(token);
    if (record === undefined) throw serviceError('unauthorized', 'The token is not valid.');
    if (record.replaced) throw serviceError('token_expired', 'The token was replaced by a refresh.');
    if (Date.parse(record.expires_at) <= this.clock.now())
      throw serviceError('token_expired', 'The token has expired.');
    return record;
  }
}
