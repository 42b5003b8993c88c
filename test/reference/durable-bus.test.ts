/**
 * The durable event bus across restarts: what `append` acknowledged is read back by a new process's bus on the
 * reopened database, with its ids, marks and end; resuming after an id gives exactly what followed; purge deletes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { DurableEventBus } from '../../reference/bus/durable.js';
import { EventLogClosedError, type Subscription } from '../../reference/bus/types.js';
import { FakeClock } from '../../reference/clock.js';
import { buildEvent } from '../../reference/events.js';
import { RETENTION_SWEEP_MS, ReferenceService } from '../../reference/service.js';
import { createSqlStore } from '../../reference/store/sql.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';
import { agentConfig } from './helpers/fixtures.js';

const conversation = { id: 'conv_1', agent_id: 'ca_1@v1', livemode: true };
const at = '2025-07-01T00:00:00.000Z';
const userText = (text: string): ServerEvent => buildEvent(conversation, { type: 'user.message.received', text }, at);
const ended = (): ServerEvent => buildEvent(conversation, { type: 'conversation.ended' }, at);
const texts = (events: readonly ServerEvent[] | undefined) =>
  (events ?? []).map((e) => (e.payload.type === 'user.message.received' ? e.payload.text : e.payload.type));

let database: TestDatabase | undefined;

afterEach(async () => {
  await database?.remove();
  database = undefined;
});

/** A new bus on the reopened database: what a restarted process has. */
async function restart(current: TestDatabase): Promise<DurableEventBus> {
  return new DurableEventBus(await current.reopen());
}

describe('DurableEventBus across a restart', () => {
  it('gives back every acknowledged event with its id, resumes after an id or a mark, and keeps the end', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    const events = [userText('a'), userText('b')];
    for (const event of events) await before.append('conv_1', event);
    await before.mark('conv_1', 'ev_private');
    const last = [userText('c'), ended()];
    for (const event of last) await before.append('conv_1', event);
    await before.append(
      'conv_2',
      buildEvent({ ...conversation, id: 'conv_2' }, { type: 'user.message.received', text: 'other' }, at),
    );

    const after = await restart(database);
    const all = await after.read('conv_1');
    expect(all?.map((e) => e.id)).toEqual([...events, ...last].map((e) => e.id));
    expect(all).toEqual([...events, ...last]);
    expect(texts(await after.read('conv_1', events[0]?.id))).toEqual(['b', 'c', 'conversation.ended']);
    expect(texts(await after.read('conv_1', 'ev_private'))).toEqual(['c', 'conversation.ended']);
    expect(await after.read('conv_1', 'ev_unknown')).toBeUndefined();
    const resumed = await after.subscribe('conv_1', events[1]?.id);
    const seen: ServerEvent[] = [];
    for await (const event of resumed ?? []) seen.push(event);
    expect(texts(seen)).toEqual(['c', 'conversation.ended']);
    await expect(after.append('conv_1', userText('late'))).rejects.toBeInstanceOf(EventLogClosedError);
    expect(texts(await after.read('conv_2'))).toEqual(['other']);
  }, 60_000);

  it('continues a live log after the restart at the next position', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    await before.append('conv_1', userText('a'));
    const after = await restart(database);
    const sub = await after.subscribe('conv_1', (await after.read('conv_1'))?.[0]?.id);
    await after.append('conv_1', userText('b'));
    expect(texts([(await sub?.next())?.value as ServerEvent])).toEqual(['b']);
    const again = await restart(database);
    expect(texts(await again.read('conv_1'))).toEqual(['a', 'b']);
  }, 60_000);

  it('gives back text with U+0000 and U+E000 as it was sent (jsonb cannot hold U+0000)', async () => {
    database = await openTestDatabase();
    const sent = ['a\u0000b', '\uE000', '\uE0000', '\\u0000'];
    const before = new DurableEventBus(database.db);
    for (const text of sent) await before.append('conv_1', userText(text));
    expect(texts(await (await restart(database)).read('conv_1'))).toEqual(sent);
  }, 60_000);

  it('purge deletes the stored log: a restarted bus reads nothing', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    await before.append('conv_1', userText('a'));
    await before.mark('conv_1', 'ev_private');
    await before.purge('conv_1');
    const after = await restart(database);
    expect(await after.read('conv_1')).toEqual([]);
    expect(await after.read('conv_1', 'ev_private')).toBeUndefined();
  }, 60_000);
});

describe('DurableEventBus beyond what memory holds', () => {
  const limits = { perConversation: 3, total: 6 };
  const appendTexts = async (bus: DurableEventBus, count: number) => {
    const events = Array.from({ length: count }, (_, i) => userText(`m${i}`));
    for (const event of events) await bus.append('conv_1', event);
    return events;
  };
  /** The next `count` events of `subscription` (it stays open). */
  const drain = async (subscription: Subscription | undefined, count: number) => {
    const seen: ServerEvent[] = [];
    while (subscription !== undefined && seen.length < count) {
      const next = await subscription.next();
      if (next.done) break;
      seen.push(next.value);
    }
    return seen;
  };

  it('reads and resumes after an event memory dropped, from the database, in order with the same ids', async () => {
    database = await openTestDatabase();
    const bus = new DurableEventBus(database.db, limits);
    const events = await appendTexts(bus, 20);
    expect(bus.heldEvents).toBeLessThanOrEqual(limits.total);
    expect(await bus.read('conv_1')).toEqual(events);
    expect(await bus.read('conv_1', events[1]?.id)).toEqual(events.slice(2));
    expect(await drain(await bus.subscribe('conv_1', events[1]?.id), 18)).toEqual(events.slice(2));
    expect(await drain(await bus.subscribe('conv_1'), 20)).toEqual(events);
    expect(await bus.read('conv_1', 'ev_unknown')).toBeUndefined();
    expect(await bus.subscribe('conv_1', 'ev_unknown')).toBeUndefined();
  }, 60_000);

  it('after a restart loads only the newest events into memory, and still reads and resumes from the start', async () => {
    database = await openTestDatabase();
    const events = await appendTexts(new DurableEventBus(database.db, limits), 20);
    const after = new DurableEventBus(await database.reopen(), limits);
    expect(await after.read('conv_1', events[1]?.id)).toEqual(events.slice(2));
    expect(after.heldEvents).toBe(limits.perConversation);
    expect(await drain(await after.subscribe('conv_1'), 20)).toEqual(events);
    const next = userText('next');
    await after.append('conv_1', next);
    expect(await after.read('conv_1', events[18]?.id)).toEqual([events[19], next]);
  }, 60_000);

  it('a subscriber that falls behind memory goes on from the database, then live, without a gap', async () => {
    database = await openTestDatabase();
    const bus = new DurableEventBus(database.db, limits);
    const first = await appendTexts(bus, 2);
    const subscription = await bus.subscribe('conv_1');
    if (subscription === undefined) throw new Error('no subscription');
    expect((await subscription.next()).value).toEqual(first[0]);
    const more = await appendTexts(bus, 10);
    expect(subscription.lag).toBe(11);
    expect(await drain(subscription, 11)).toEqual([...first.slice(1), ...more]);
    const ending = ended();
    await bus.append('conv_1', ending);
    expect(await subscription.next()).toEqual({ done: false, value: ending });
    expect((await subscription.next()).done).toBe(true);
    expect(subscription.lost).toBe(false);
  }, 60_000);
});

describe('retention by the database', () => {
  const endedAt = (id: string, time: string): ServerEvent =>
    buildEvent({ ...conversation, id }, { type: 'conversation.ended' }, time);
  const count = async (db: TestDatabase['db'], id: string) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM event_log WHERE conversation_id = $1', [id]))[0]?.n;

  it('purgeEndedBefore deletes by SQL the logs ended before the time, once, and ends their subscriptions', async () => {
    database = await openTestDatabase();
    const bus = new DurableEventBus(database.db);
    const early = { ...conversation, id: 'conv_early' };
    await bus.append('conv_early', buildEvent(early, { type: 'user.message.received', text: 'a' }, at));
    await bus.append('conv_early', endedAt('conv_early', '2025-07-01T01:00:00.000Z'));
    await bus.append('conv_late', endedAt('conv_late', '2025-07-01T03:00:00.000Z'));
    await bus.append(
      'conv_live',
      buildEvent({ ...conversation, id: 'conv_live' }, { type: 'conversation.started' }, at),
    );
    const subscription = await bus.subscribe('conv_early', (await bus.read('conv_early'))?.[1]?.id);

    expect(await bus.purgeEndedBefore('2025-07-01T02:00:00.000Z')).toBe(1);
    expect(await count(database.db, 'conv_early')).toBe(0);
    expect(await count(database.db, 'conv_late')).toBe(1);
    expect(await count(database.db, 'conv_live')).toBe(1);
    expect(await subscription?.next()).toEqual({ done: true, value: undefined });
    expect(await bus.read('conv_early')).toEqual([]);
    expect(bus.heldEvents).toBe(2);
    // Once: a second sweep finds nothing more; the log stays closed.
    expect(await bus.purgeEndedBefore('2025-07-01T02:00:00.000Z')).toBe(0);
    await expect(bus.append('conv_early', userText('late'))).rejects.toBeInstanceOf(EventLogClosedError);
    expect(await bus.purgeEndedBefore('2025-07-02T00:00:00.000Z')).toBe(1);
  }, 60_000);

  it('the service sweeps a database bus: an ended conversation’s log is gone from the table after the retention', async () => {
    database = await openTestDatabase();
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const service = new ReferenceService({
      settings: { apiKeys: [{ key: 'key_write', org: 'org_a', scope: 'write' }], eventRetentionSeconds: 600 },
      clock,
      store: createSqlStore(database.db),
      bus: new DurableEventBus(database.db),
      onError: (error) => errors.push(error),
    });
    const writer = { kind: 'key', org: 'org_a', scope: 'write' } as const;
    try {
      const agent = await service.createConversationalAgent(writer, {}, {}, {
        name: 'Ava',
        config: agentConfig(),
      } as never);
      const created = await service.createConversation(
        writer,
        {},
        {},
        { agent_id: agent.id, channel: { type: 'chat_realtime' } },
        { baseUrl: 'http://127.0.0.1' },
      );
      await service.handleClientFrame(created.id, JSON.stringify({ payload: { type: 'conversation.end' } }));
      const logged = await count(database.db, created.id);
      expect(logged).toBeGreaterThanOrEqual(2);
      await clock.advance(600_000 - 1);
      expect(await count(database.db, created.id)).toBe(logged);
      await clock.advance(RETENTION_SWEEP_MS + 1);
      expect(await count(database.db, created.id)).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      service.close();
    }
  }, 60_000);
});
