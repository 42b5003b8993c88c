/**
 * Bounded event memory: the memory bus keeps a conversation's newest events and a total across conversations
 * (dropping ended histories first), and a resume from what was dropped is 410 `events_dropped` in the `Error` shape,
 * over real SSE on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type Target } from '../../conformance/target.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { MemoryEventBus } from '../../reference/bus/memory.js';
import { EventsDroppedError } from '../../reference/bus/types.js';
import { ConfigError, loadConfig } from '../../reference/config.js';
import { buildEvent } from '../../reference/events.js';
import { createChat, headersOf, startChat } from './helpers/loopback.js';

const at = '2025-07-01T00:00:00.000Z';
const event = (conversationId: string, text: string): ServerEvent =>
  buildEvent({ id: conversationId, agent_id: 'ca_1@v1', livemode: true }, { type: 'user.message.received', text }, at);
const ended = (conversationId: string): ServerEvent =>
  buildEvent({ id: conversationId, agent_id: 'ca_1@v1', livemode: true }, { type: 'conversation.ended' }, at);
const texts = (events: readonly ServerEvent[] | undefined) =>
  (events ?? []).map((e) => (e.payload.type === 'user.message.received' ? e.payload.text : e.payload.type));

describe('the memory bus within its limits', () => {
  it('keeps the newest events of a conversation; resuming before them is EventsDroppedError', async () => {
    const bus = new MemoryEventBus({ perConversation: 3, total: 100 });
    const events = ['a', 'b', 'c', 'd', 'e'].map((t) => event('conv_1', t));
    for (const e of events) await bus.append('conv_1', e);
    expect(texts(await bus.read('conv_1'))).toEqual(['c', 'd', 'e']);
    expect(texts(await bus.read('conv_1', events[2]?.id))).toEqual(['d', 'e']);
    await expect(bus.read('conv_1', events[0]?.id)).rejects.toBeInstanceOf(EventsDroppedError);
    await expect(bus.subscribe('conv_1', events[1]?.id)).rejects.toBeInstanceOf(EventsDroppedError);
    expect(bus.heldEvents).toBe(3);
  });

  it('past the total drops whole histories, ended ones first, never the one appended to', async () => {
    const bus = new MemoryEventBus({ perConversation: 100, total: 10 });
    for (const id of ['conv_live', 'conv_old', 'conv_new']) {
      for (let i = 0; i < 3; i++) await bus.append(id, event(id, `${id}-${i}`));
    }
    await bus.append('conv_old', ended('conv_old'));
    expect(bus.heldEvents).toBe(10);
    await bus.append('conv_new', event('conv_new', 'over'));
    // 11 > 10: the ended history goes first (down to 9 or fewer), the live ones stay.
    expect(texts(await bus.read('conv_old'))).toEqual([]);
    expect(texts(await bus.read('conv_live'))).toHaveLength(3);
    expect(texts(await bus.read('conv_new'))).toHaveLength(4);
    expect(bus.heldEvents).toBe(7);
    // A whole ended history dropped: a new reader is told so rather than given an empty stream that ends.
    await expect(bus.subscribe('conv_old')).rejects.toBeInstanceOf(EventsDroppedError);
    // Then live histories, oldest first, when nothing ended is left.
    for (let i = 0; i < 4; i++) await bus.append('conv_new', event('conv_new', `more-${i}`));
    expect(texts(await bus.read('conv_live'))).toEqual([]);
    expect(texts(await bus.read('conv_new'))).toHaveLength(8);
  });

  it('ends a subscriber that fell behind what is kept, marked lost, instead of skipping events', async () => {
    const bus = new MemoryEventBus({ perConversation: 2, total: 100 });
    await bus.append('conv_1', event('conv_1', 'a'));
    const subscription = await bus.subscribe('conv_1');
    if (subscription === undefined) throw new Error('no subscription');
    expect(texts([(await subscription.next()).value as ServerEvent])).toEqual(['a']);
    for (const t of ['b', 'c', 'd']) await bus.append('conv_1', event('conv_1', t));
    expect((await subscription.next()).done).toBe(true);
    expect(subscription.lost).toBe(true);
  });

  it('ends a subscriber found behind what is kept at once, not at the next append', async () => {
    const bus = new MemoryEventBus({ perConversation: 2, total: 100 });
    await bus.append('conv_1', event('conv_1', 'a'));
    const subscription = await bus.subscribe('conv_1');
    if (subscription === undefined) throw new Error('no subscription');
    for (const t of ['b', 'c', 'd']) await bus.append('conv_1', event('conv_1', t));
    // The wake of those appends has gone by: nothing else will wake a waiting reader.
    await new Promise((resolve) => setImmediate(resolve));
    const next = await Promise.race([
      subscription.next(),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000)),
    ]);
    expect(next).toEqual({ done: true, value: undefined });
    expect(subscription.lost).toBe(true);
  });

  it('takes its limits from CASI_MAX_EVENTS_PER_CONVERSATION and CASI_MAX_EVENTS (smaller with a database), refusing bad values', () => {
    const { config } = loadConfig({ CASI_MAX_EVENTS_PER_CONVERSATION: '7', CASI_MAX_EVENTS: '70' });
    expect(config.eventLimits).toEqual({ perConversation: 7, total: 70 });
    expect(loadConfig({ CASI_DATABASE_URL: 'memory:' }).config.eventLimits).toEqual({
      perConversation: 20_000,
      total: 200_000,
    });
    // With a database the limits bound only the copy in memory: older events are read back from the database.
    expect(loadConfig({}).config.eventLimits).toEqual({ perConversation: 1_000, total: 10_000 });
    expect(() => loadConfig({ CASI_MAX_EVENTS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CASI_MAX_EVENTS_PER_CONVERSATION: 'lots' })).toThrow(/CASI_MAX_EVENTS_PER_CONVERSATION/);
  });
});

describe('resuming a dropped history over SSE', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startReference({ env: { CASI_MAX_EVENTS_PER_CONVERSATION: '4' } });
  });
  afterAll(async () => {
    await target?.close();
  });

  it('is 410 events_dropped in the Error shape; a new stream gets the events kept', async () => {
    const id = await createChat(target);
    await startChat(target.baseUrl, target.keys.write, id);
    const headers = headersOf(target.keys.write);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await fetch(`${target.baseUrl}/conversations/${id}/context`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ data: { seq: String(i) } }),
      });
      const body = (await answer.json()) as { event_id: string };
      expect(answer.status, JSON.stringify(body)).toBe(200);
      ids.push(body.event_id);
    }
    const resumed = await fetch(`${target.baseUrl}/conversations/${id}/events`, {
      headers: { ...headers, 'Last-Event-ID': ids[0] ?? '' },
    });
    expect(resumed.status).toBe(410);
    const body = (await resumed.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'events_dropped', transient: false });
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'transient']);
    const controller = new AbortController();
    const fresh = await fetch(`${target.baseUrl}/conversations/${id}/events`, { headers, signal: controller.signal });
    expect(fresh.status).toBe(200);
    const reader = fresh.body?.getReader();
    let text = '';
    const deadline = Date.now() + 3000;
    while (!text.includes(ids[5] ?? '-') && Date.now() < deadline) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    const sent = [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
    expect(sent).toHaveLength(4);
    expect(sent.slice(-2)).toEqual(ids.slice(-2));
  });
});
