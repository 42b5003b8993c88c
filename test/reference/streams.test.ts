/** Opening the events: history then live, resume, unknown ids, 204 after the end, retention expiry and purge. */
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateServerEvent } from '../../generated/src/validators.gen.js';
import type { Subscription } from '../../reference/bus/types.js';
import { RETENTION_SWEEP_MS } from '../../reference/service.js';
import {
  closeServiceAfterEach,
  createAgent,
  createConversation,
  eventsOf,
  expectValid,
  failure,
  makeService,
  send,
  type TestService,
} from './helpers/fixtures.js';
import { testDatabaseKind } from './helpers/state.js';

let t: TestService;
closeServiceAfterEach(() => t);

async function chat(retentionSeconds = 3600) {
  t = makeService({ eventRetentionSeconds: retentionSeconds });
  const agentId = await createAgent(t);
  return createConversation(t, agentId);
}

async function drain(events: Subscription, max = 1000): Promise<ServerEvent[]> {
  const out: ServerEvent[] = [];
  for (let i = 0; i < max; i++) {
    const next = await events.next();
    if (next.done) return out;
    expectValid(validateServerEvent, next.value);
    out.push(next.value);
  }
  throw new Error('the stream did not end');
}

describe('openEventStream', () => {
  it('replays the history, then live events, and ends after conversation.ended', async () => {
    const { id } = await chat();
    await send(t, id, { payload: { type: 'conversation.start' } });
    const opening = await t.service.openEventStream(t.reader, id);
    if (opening.status !== 200) throw new Error('expected events');
    const history = [await opening.events.next(), await opening.events.next()];
    expect(history.map((r) => r.value?.payload.type)).toEqual(['conversation.setup', 'conversation.started']);
    const pending = opening.events.next();
    await send(t, id, { payload: { type: 'user.message.send', text: 'live' } });
    expect((await pending).value?.payload).toEqual({ type: 'user.message.received', text: 'live' });
    await send(t, id, { payload: { type: 'conversation.end' } });
    const rest = await drain(opening.events);
    expect(rest.at(-1)?.payload.type).toBe('conversation.ended');
    expect([...history.map((r) => r.value), (await eventsOf(t, id))[2], ...rest]).toEqual(await eventsOf(t, id));
  });

  it('resumes after Last-Event-ID; an id of no event of this conversation is 400 unknown_event_id', async () => {
    const { id } = await chat();
    const other = await createConversation(t, await createAgent(t));
    await send(t, id, { payload: { type: 'user.message.send', text: 'one' } });
    const events = await eventsOf(t, id);
    const resumed = await t.service.openEventStream(t.writer, id, events[2]?.id);
    if (resumed.status !== 200) throw new Error('expected events');
    expect((await resumed.events.next()).value).toEqual(events[3]);
    resumed.events.close();
    const foreign = (await eventsOf(t, other.id))[0]?.id;
    for (const lastEventId of ['ev_unknown', foreign]) {
      expect(await failure(t.service.openEventStream(t.writer, id, lastEventId))).toEqual({
        status: 400,
        code: 'unknown_event_id',
      });
      expect(await failure(t.service.openSession(t.writer, id, lastEventId))).toEqual({
        status: 400,
        code: 'unknown_event_id',
      });
    }
  });

  it('answers 204 to a reconnect after the last event of an ended conversation; the session opens with nothing to replay', async () => {
    const { id } = await chat();
    await send(t, id, { payload: { type: 'conversation.end' } });
    const events = await eventsOf(t, id);
    const last = events.at(-1)?.id;
    expect(await t.service.openEventStream(t.writer, id, last)).toEqual({ status: 204 });
    const early = await t.service.openEventStream(t.writer, id, events[0]?.id);
    expect(early.status === 200 && (await drain(early.events)).map((e) => e.payload.type)).toEqual([
      'conversation.started',
      'conversation.ended',
    ]);
    const full = await t.service.openEventStream(t.writer, id);
    expect(full.status === 200 && (await drain(full.events))).toEqual(events);
    const session = await t.service.openSession(t.writer, id, last);
    expect(session.events.lag).toBe(0);
    expect(await session.events.next()).toEqual({ done: true, value: undefined });
    const late = await session.handleFrame('{"id":"z","payload":{"type":"conversation.start"}}');
    expect(await t.service.openEventStream(t.writer, id, late?.id)).toEqual({ status: 204 });
  });

  it('stays readable for the retention window after the end, then answers 404 event_stream_expired and drops the log', async () => {
    const { id, channel } = await chat(60);
    const token = await t.service.authenticate({ token: channel.token });
    await send(t, id, { payload: { type: 'conversation.start' } });
    const open = await t.service.openSession(t.writer, id);
    await open.events.next();
    await send(t, id, { payload: { type: 'conversation.end' } });
    await t.clock.advance(59_999);
    expect((await t.service.openEventStream(token, id)).status).toBe(200);
    await t.clock.advance(1);
    const expired = { status: 404, code: 'event_stream_expired' };
    expect(await failure(t.service.openEventStream(token, id))).toEqual(expired);
    expect(await failure(t.service.openEventStream(t.writer, id))).toEqual(expired);
    expect(await failure(t.service.openSession(t.writer, id))).toEqual(expired);
    // Memory drops the log at once; a database at its next retention sweep.
    if (testDatabaseKind() !== 'memory') await t.clock.advance(RETENTION_SWEEP_MS);
    expect(await t.service.bus.read(id)).toEqual([]);
    expect(await open.events.next()).toEqual({ done: true, value: undefined });
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).status).toBe('completed');
  });

  it('is 404 for another organisation and for an unknown conversation', async () => {
    const { id } = await chat();
    expect(await failure(t.service.openEventStream(t.stranger, id))).toEqual({ status: 404, code: 'not_found' });
    expect(await failure(t.service.openSession(t.writer, 'conv_nope'))).toEqual({ status: 404, code: 'not_found' });
  });
});
