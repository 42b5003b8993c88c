/**
 * The event bus, in memory and over the embedded database: order, resume by id and by mark, the end rule, purge,
 * and slow subscribers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateServerEvent } from '../../generated/src/validators.gen.js';
import { DurableEventBus } from '../../reference/bus/durable.js';
import { MAX_MARKS_PER_CONVERSATION, MemoryEventBus } from '../../reference/bus/memory.js';
import { type EventBus, EventLogClosedError } from '../../reference/bus/types.js';
import { buildEvent } from '../../reference/events.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';
import { expectValid } from './helpers/fixtures.js';

const conversation = { id: 'conv_1', agent_id: 'ca_1@v1', livemode: true };
const at = '2025-07-01T00:00:00.000Z';
const userText = (text: string): ServerEvent => buildEvent(conversation, { type: 'user.message.received', text }, at);
const ended = (): ServerEvent => buildEvent(conversation, { type: 'conversation.ended' }, at);
const texts = (events: readonly ServerEvent[]) =>
  events.map((e) => (e.payload.type === 'user.message.received' ? e.payload.text : e.payload.type));

async function take(iterator: AsyncIterator<ServerEvent>, count: number): Promise<ServerEvent[]> {
  const out: ServerEvent[] = [];
  for (let i = 0; i < count; i++) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);

afterAll(async () => {
  await database.remove();
});

/** A durable bus over an emptied database. */
async function durableBus(): Promise<EventBus> {
  await database.db.exec('DELETE FROM event_log; DELETE FROM event_marks; DELETE FROM event_heads');
  return new DurableEventBus(database.db);
}

// The slow-subscriber test appends `events` one by one: fewer over the database, where each is a write.
describe.each([
  { kind: 'memory', empty: async (): Promise<EventBus> => new MemoryEventBus(), events: 20_000 },
  { kind: 'durable', empty: durableBus, events: 2_000 },
])('$kind event bus', ({ empty, events: count }) => {
  it('builds valid envelopes and keeps the order of appends', async () => {
    const bus = await empty();
    const events = ['a', 'b', 'c'].map(userText);
    for (const event of events) {
      expectValid(validateServerEvent, event);
      await bus.append('conv_1', event);
    }
    expect(texts((await bus.read('conv_1')) ?? [])).toEqual(['a', 'b', 'c']);
    expect(texts((await bus.read('conv_1', events[0]?.id)) ?? [])).toEqual(['b', 'c']);
    expect(await bus.read('conv_1', events[2]?.id)).toEqual([]);
    expect(await bus.read('conv_1', 'ev_unknown')).toBeUndefined();
    expect(await bus.read('conv_other')).toEqual([]);
    expect(await bus.read('conv_other', 'ev_x')).toBeUndefined();
  });

  it('marks the end of the log under an id, so resuming after a private event works', async () => {
    const bus = await empty();
    await bus.append('conv_1', userText('a'));
    await bus.mark('conv_1', 'ev_private');
    await bus.append('conv_1', userText('b'));
    expect(texts((await bus.read('conv_1', 'ev_private')) ?? [])).toEqual(['b']);
    const sub = await bus.subscribe('conv_1', 'ev_private');
    expect(texts(await take(sub as AsyncIterator<ServerEvent>, 1))).toEqual(['b']);
  });

  it(`keeps only the newest ${MAX_MARKS_PER_CONVERSATION} marks`, async () => {
    const bus = await empty();
    await bus.append('conv_1', userText('a'));
    for (let i = 0; i <= MAX_MARKS_PER_CONVERSATION; i++) await bus.mark('conv_1', `ev_m${i}`);
    expect(await bus.read('conv_1', 'ev_m0')).toBeUndefined();
    expect(await bus.read('conv_1', `ev_m${MAX_MARKS_PER_CONVERSATION}`)).toEqual([]);
  });

  it('refuses any event after conversation.ended; subscriptions (early or late) finish with it', async () => {
    const bus = await empty();
    const sub = await bus.subscribe('conv_1');
    await bus.append('conv_1', userText('a'));
    await bus.append('conv_1', ended());
    await expect(bus.append('conv_1', userText('late'))).rejects.toBeInstanceOf(EventLogClosedError);
    const late = await bus.subscribe('conv_1');
    expect(texts(await take(late as AsyncIterator<ServerEvent>, 10))).toEqual(['a', 'conversation.ended']);
    expect(texts(await take(sub as AsyncIterator<ServerEvent>, 10))).toEqual(['a', 'conversation.ended']);
    expect(await sub?.next()).toEqual({ done: true, value: undefined });
  });

  it('delivers history then live events to a subscriber waiting for them', async () => {
    const bus = await empty();
    await bus.append('conv_1', userText('a'));
    const sub = await bus.subscribe('conv_1');
    if (sub === undefined) throw new Error('no subscription');
    const first = await sub.next();
    const pending = sub.next();
    await bus.append('conv_1', userText('b'));
    const second = await pending;
    expect(texts([first.value, second.value].filter((e): e is ServerEvent => e !== undefined))).toEqual(['a', 'b']);
    sub.close();
    expect(await sub.next()).toEqual({ done: true, value: undefined });
  });

  it('close() ends a pending next()', async () => {
    const bus = await empty();
    await bus.append('conv_1', userText('a'));
    const sub = await bus.subscribe('conv_1', (await bus.read('conv_1'))?.[0]?.id);
    const pending = sub?.next();
    sub?.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('purge drops the log and ends its subscriptions', async () => {
    const bus = await empty();
    await bus.append('conv_1', userText('a'));
    const sub = await bus.subscribe('conv_1');
    await sub?.next();
    const pending = sub?.next();
    await bus.purge('conv_1');
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await bus.read('conv_1')).toEqual([]);
    expect(await bus.subscribe('conv_1', 'ev_anything')).toBeUndefined();
  });

  it('a slow subscriber costs a position, never blocks appends nor the others, and still gets everything', async () => {
    const bus = await empty();
    const slow = await bus.subscribe('conv_1');
    const fast = await bus.subscribe('conv_1');
    if (slow === undefined || fast === undefined) throw new Error('no subscription');
    const fastSeen: string[] = [];
    for (let i = 0; i < count; i++) {
      await bus.append('conv_1', userText(String(i)));
      const next = await fast.next();
      if (!next.done && next.value.payload.type === 'user.message.received') fastSeen.push(next.value.payload.text);
    }
    expect(fastSeen.length).toBe(count);
    expect(fast.lag).toBe(0);
    expect(slow.lag).toBe(count);
    const slowSeen = texts(await take(slow, count));
    expect(slowSeen).toEqual(fastSeen);
    expect(slow.lag).toBe(0);
  });

  it('poll gives what the log already holds without waiting, and nothing after the end', async () => {
    const bus = await empty();
    const sub = await bus.subscribe('conv_1');
    if (sub === undefined) throw new Error('no subscription');
    expect(sub.poll()).toBeUndefined();
    await bus.append('conv_1', userText('a'));
    await bus.append('conv_1', userText('b'));
    await bus.append('conv_1', ended());
    expect(sub.lag).toBe(3);
    expect(texts([sub.poll(), sub.poll()].filter((e) => e !== undefined))).toEqual(['a', 'b']);
    expect(sub.poll()?.payload.type).toBe('conversation.ended');
    expect(sub.poll()).toBeUndefined();
    expect((await sub.next()).done).toBe(true);
  });

  it('a waiting subscriber gets the first event appended; the ones appended meanwhile wait for poll', async () => {
    const bus = await empty();
    const sub = await bus.subscribe('conv_1');
    if (sub === undefined) throw new Error('no subscription');
    const first = sub.next();
    await bus.append('conv_1', userText('a'));
    await bus.append('conv_1', userText('b'));
    expect(texts([(await first).value as ServerEvent])).toEqual(['a']);
    expect(texts([sub.poll() as ServerEvent])).toEqual(['b']);
  });

  it('freezes each event on append and gives every reader that same object', async () => {
    const bus = await empty();
    const event = userText('a');
    const first = await bus.subscribe('conv_1');
    const second = await bus.subscribe('conv_1');
    await bus.append('conv_1', event);
    expect(Object.isFrozen(event) && Object.isFrozen(event.payload)).toBe(true);
    const [read] = (await bus.read('conv_1')) ?? [];
    expect(read).toBe(event);
    expect((await first?.next())?.value).toBe(event);
    expect((await second?.next())?.value).toBe(event);
    expect(() => {
      if (read?.payload.type === 'user.message.received') read.payload.text = 'changed';
    }).toThrow(TypeError);
    expect(texts((await bus.read('conv_1')) ?? [])).toEqual(['a']);
  });
});
