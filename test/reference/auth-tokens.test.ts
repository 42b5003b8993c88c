/** Authentication: API keys, scopes, rate limit; conversation tokens: TTL, refresh, other conversations, REST. */
import { describe, expect, it } from 'vitest';
import { validateConversationToken, validateError } from '../../generated/src/validators.gen.js';
import { ServiceError } from '../../reference/errors.js';
import { tokenId } from '../../reference/tokens.js';
import {
  closeServiceAfterEach,
  createAgent,
  createConversation,
  expectValid,
  failure,
  makeService,
  send,
  type TestService,
} from './helpers/fixtures.js';

let t: TestService;
closeServiceAfterEach(() => t);

describe('API keys', () => {
  it.each([
    ['no credentials', {}, 'unauthorized'],
    ['a malformed header', { authorization: 'Basic abc' }, 'unauthorized'],
    ['a bearer without key', { authorization: 'Bearer ' }, 'unauthorized'],
    ['an unknown key', { authorization: 'Bearer nope' }, 'unauthorized'],
    ['an unknown token', { token: 'ct_nope' }, 'unauthorized'],
  ])('refuses %s with 401', async (_name, credentials, code) => {
    t = makeService();
    const error = await t.service.authenticate(credentials).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 401, code, transient: false });
    expectValid(validateError, (error as ServiceError).toBody());
  });

  it('maps keys to their organisation and scope (bearer is case-insensitive)', async () => {
    t = makeService();
    expect(await t.service.authenticate({ authorization: 'Bearer key_write' })).toEqual(t.writer);
    expect(await t.service.authenticate({ authorization: 'bearer key_read' })).toEqual(t.reader);
    expect(await t.service.authenticate({ authorization: 'Bearer key_other' })).toEqual(t.stranger);
  });

  it('applies CASI_RATE_LIMIT per key with Retry-After, and refills on the clock', async () => {
    t = makeService({ rateLimit: 2 });
    const auth = { authorization: 'Bearer key_write' };
    await t.service.authenticate(auth);
    await t.service.authenticate(auth);
    const error = (await t.service.authenticate(auth).catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      transient: true,
      headers: { 'retry-after': '1' },
    });
    expect(await t.service.authenticate({ authorization: 'Bearer key_read' })).toEqual(t.reader);
    await t.clock.advance(500);
    expect(await t.service.authenticate(auth)).toEqual(t.writer);
    await expect(t.service.authenticate(auth)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});

describe('conversation tokens', () => {
  async function conversation(ttlSeconds = 10_800) {
    t = makeService({ tokenTtlSeconds: ttlSeconds, eventRetentionSeconds: 3600 });
    // On PostgreSQL a refresh reaches the holds of a token through a notice, which the service follows once ready.
    await t.ready;
    const agentId = await createAgent(t);
    return createConversation(t, agentId);
  }

  it('stores only the SHA-256 of a token, never the token itself', async () => {
    const { id, channel } = await conversation();
    const refreshed = await t.service.refreshConversationToken(t.writer, { conversation_id: id });
    for (const token of [channel.token, refreshed.token]) {
      expect(await t.service.store.tokens.get(token)).toBeUndefined();
      expect((await t.service.store.tokens.get(tokenId(token)))?.conversation_id).toBe(id);
    }
    expect(tokenId(channel.token)).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify([
      await t.service.store.conversations.get(id),
      await t.service.store.tokens.list({ order: 'asc' }),
    ]);
    expect(stored).not.toContain(channel.token);
    expect(stored).not.toContain(refreshed.token);
  });

  it('opens its own conversation’s stream and session, nothing else', async () => {
    const { id, channel } = await conversation();
    const other = await createConversation(
      t,
      (await t.service.getConversation(t.writer, { conversation_id: id })).agent_id,
    );
    const auth = await t.service.authenticate({ token: channel.token });
    expect(auth).toEqual({
      kind: 'token',
      org: 'org_a',
      conversationId: id,
      token: tokenId(channel.token),
      expiresAt: new Date(t.clock.now() + 10_800_000).toISOString(),
    });
    expect((await t.service.openEventStream(auth, id)).status).toBe(200);
    expect(await t.service.openSession(auth, id)).toHaveProperty('events');
    expect(await failure(t.service.openEventStream(auth, other.id))).toEqual({ status: 403, code: 'forbidden' });
    expect(await failure(t.service.openSession(auth, other.id))).toEqual({ status: 403, code: 'forbidden' });
    expect(await failure(t.service.getConversation(auth, { conversation_id: id }))).toEqual({
      status: 401,
      code: 'unauthorized',
    });
    expect(await failure(t.service.refreshConversationToken(auth, { conversation_id: id }))).toEqual({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('prefers the Authorization header when both are sent', async () => {
    const { channel } = await conversation();
    expect(await t.service.authenticate({ authorization: 'Bearer key_read', token: channel.token })).toEqual(t.reader);
  });

  it('expires after its TTL (401 token_expired)', async () => {
    const { channel } = await conversation(60);
    await t.clock.advance(59_999);
    await t.service.authenticate({ token: channel.token });
    await t.clock.advance(1);
    expect(await failure(t.service.authenticate({ token: channel.token }))).toEqual({
      status: 401,
      code: 'token_expired',
    });
  });

  it('refresh issues a later token and the old one fails at once; at most one is active', async () => {
    const { id, channel } = await conversation(60);
    await t.clock.advance(30_000);
    const fresh = await t.service.refreshConversationToken(t.writer, { conversation_id: id });
    expectValid(validateConversationToken, fresh);
    expect(fresh.token).not.toBe(channel.token);
    expect(Date.parse(fresh.expires_at)).toBe(t.clock.now() + 60_000);
    expect(await failure(t.service.authenticate({ token: channel.token }))).toEqual({
      status: 401,
      code: 'token_expired',
    });
    expect(await t.service.authenticate({ token: fresh.token })).toMatchObject({ conversationId: id });
    const again = await t.service.refreshConversationToken(t.writer, { conversation_id: id });
    expect(await failure(t.service.authenticate({ token: fresh.token }))).toEqual({
      status: 401,
      code: 'token_expired',
    });
    expect(await t.service.authenticate({ token: again.token })).toMatchObject({ conversationId: id });
  });

  it('refreshes at the same instant give ever later expiry times', async () => {
    const { id, channel } = await conversation(60);
    const auth = await t.service.authenticate({ token: channel.token });
    let previous = Date.parse(auth.kind === 'token' ? auth.expiresAt : '');
    for (let i = 0; i < 3; i++) {
      const fresh = await t.service.refreshConversationToken(t.writer, { conversation_id: id });
      expect(Date.parse(fresh.expires_at)).toBeGreaterThan(previous);
      previous = Date.parse(fresh.expires_at);
    }
  });

  it('aborts the holds of connections a token opened when a refresh replaces it, and only those', async () => {
    const { id, channel } = await conversation(60);
    const auth = await t.service.authenticate({ token: channel.token });
    const [first, second, released] = [1, 2, 3].map(() => t.service.holdCredentials(auth));
    const byKey = t.service.holdCredentials(t.writer);
    released?.release();
    expect(first?.signal.aborted).toBe(false);
    const fresh = await t.service.refreshConversationToken(t.writer, { conversation_id: id });
    for (const hold of [first, second]) {
      expect(hold?.signal.aborted).toBe(true);
      expect(hold?.signal.reason).toMatchObject({ status: 401, code: 'token_expired' });
    }
    expect(released?.signal.aborted).toBe(false);
    expect(byKey.signal.aborted).toBe(false);
    const next = t.service.holdCredentials(await t.service.authenticate({ token: fresh.token }));
    expect(next.signal.aborted).toBe(false);
    next.release();
  });

  it('aborts the holds of a token when it expires, not before; a released hold leaves no timer', async () => {
    const { channel } = await conversation(60);
    const auth = await t.service.authenticate({ token: channel.token });
    const pending = t.clock.pending;
    const released = t.service.holdCredentials(auth);
    expect(t.clock.pending).toBe(pending + 1);
    released.release();
    expect(t.clock.pending).toBe(pending);
    const hold = t.service.holdCredentials(auth);
    await t.clock.advance(59_999);
    expect(hold.signal.aborted).toBe(false);
    await t.clock.advance(1);
    expect(hold.signal.aborted).toBe(true);
    expect(hold.signal.reason).toMatchObject({ status: 401, code: 'token_expired', message: 'The token has expired.' });
  });

  it('refresh needs a write key of the organisation, and works until the events are gone', async () => {
    const { id } = await conversation();
    expect(await failure(t.service.refreshConversationToken(t.reader, { conversation_id: id }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect(await failure(t.service.refreshConversationToken(t.stranger, { conversation_id: id }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    await send(t, id, { payload: { type: 'conversation.end' } });
    await t.clock.advance(3_599_000);
    await t.service.refreshConversationToken(t.writer, { conversation_id: id });
    await t.clock.advance(1000);
    expect(await failure(t.service.refreshConversationToken(t.writer, { conversation_id: id }))).toEqual({
      status: 404,
      code: 'event_stream_expired',
    });
  });
});
