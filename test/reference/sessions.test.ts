/** Session frames: every refusal is a private `server.error` carrying `source_event_id`; valid frames act. */
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateServerErrorEvent, validateServerEvent } from '../../generated/src/validators.gen.js';
import {
  closeServiceAfterEach,
  createAgent,
  createConversation,
  eventsOf,
  expectValid,
  makeService,
  send,
  type TestService,
  typesOf,
} from './helpers/fixtures.js';

let t: TestService;
closeServiceAfterEach(() => t);

async function chat(): Promise<string> {
  t = makeService();
  const agentId = await createAgent(t);
  return (await createConversation(t, agentId)).id;
}

const long = 'x'.repeat(4097);

describe('handleClientFrame refusals', () => {
  it.each<[string, string, boolean, string, string | undefined, RegExp]>([
    ['text that is not JSON', '{"id": "c1", ', false, 'malformed_json', undefined, /not JSON/],
    ['a binary frame', '{"payload":{"type":"conversation.start"}}', true, 'invalid_request', undefined, /binary/],
    [
      'a binary frame with an id',
      '{"id":"b1","payload":{"type":"conversation.start"}}',
      true,
      'invalid_request',
      'b1',
      /binary/,
    ],
    ['a binary frame that is not JSON', '\u0000\u0001', true, 'invalid_request', undefined, /binary/],
    ['a JSON array', '[]', false, 'invalid_request', undefined, /Unknown client event type null/],
    ['a JSON string', '"hello"', false, 'invalid_request', undefined, /Unknown client event type/],
    ['no payload', '{"id":"c2"}', false, 'invalid_request', 'c2', /Unknown client event type/],
    ['an unknown type', '{"id":"c3","payload":{"type":"user.dance"}}', false, 'invalid_request', 'c3', /user\.dance/],
    [
      'a server event type',
      '{"id":"c4","payload":{"type":"conversation.ended"}}',
      false,
      'invalid_request',
      'c4',
      /conversation\.ended/,
    ],
    [
      'a text over 4096 characters',
      JSON.stringify({ id: 'c5', payload: { type: 'user.message.send', text: long } }),
      false,
      'invalid_request',
      'c5',
      /\/payload\/text: must NOT have more than 4096 characters/,
    ],
    [
      'an empty text',
      '{"id":"c6","payload":{"type":"user.message.send","text":""}}',
      false,
      'invalid_request',
      'c6',
      /\/payload\/text/,
    ],
    [
      'a missing text',
      '{"id":"c7","payload":{"type":"user.message.send"}}',
      false,
      'invalid_request',
      'c7',
      /\/payload\/text/,
    ],
    [
      'an unknown payload member',
      '{"id":"c8","payload":{"type":"conversation.start","x":1}}',
      false,
      'invalid_request',
      'c8',
      /\/payload\/x/,
    ],
    [
      'an unknown envelope member',
      '{"id":"c9","payload":{"type":"conversation.start"},"x":1}',
      false,
      'invalid_request',
      'c9',
      /\/x/,
    ],
    [
      'context data that is not string to string',
      '{"id":"c10","payload":{"type":"conversation.context.update","data":{"a":1}}}',
      false,
      'invalid_request',
      'c10',
      /\/payload\/data\/a/,
    ],
    [
      'an id over 128 characters (not echoed)',
      JSON.stringify({ id: 'i'.repeat(129), payload: { type: 'conversation.start' } }),
      false,
      'invalid_request',
      undefined,
      /\/id/,
    ],
    [
      'a non-string id (not echoed)',
      '{"id":7,"payload":{"type":"conversation.start"}}',
      false,
      'invalid_request',
      undefined,
      /\/id/,
    ],
  ])('%s → server.error %s', async (_name, frame, binary, code, sourceId, message) => {
    const id = await chat();
    const before = await eventsOf(t, id);
    const error = await t.service.handleClientFrame(id, frame, binary);
    expectValid(validateServerErrorEvent, error);
    expectValid(validateServerEvent, error);
    expect(error.conversation_id).toBe(id);
    expect(error.payload.error.startsWith(`${code}: `)).toBe(true);
    expect(error.payload.error).toMatch(message);
    expect(error.payload.source_event_id).toBe(sourceId);
    expect('source_event_id' in error.payload).toBe(sourceId !== undefined);
    expect(await eventsOf(t, id)).toEqual(before);
  });

  it('answers every client event after the end with conversation_ended, and the log stays closed', async () => {
    const id = await chat();
    await send(t, id, { payload: { type: 'conversation.end' } });
    const before = await typesOf(t, id);
    for (const payload of [
      { type: 'user.message.send', text: 'hello?' },
      { type: 'conversation.start' },
      { type: 'conversation.context.update', data: { a: 'b' } },
      { type: 'conversation.end' },
    ]) {
      const error = await send(t, id, { id: `late-${payload.type}`, payload });
      expectValid(validateServerErrorEvent, error);
      expect(error.payload).toEqual({
        type: 'server.error',
        error: `conversation_ended: Conversation ${id} has ended.`,
        source_event_id: `late-${payload.type}`,
      });
    }
    expect(await typesOf(t, id)).toEqual(before);
    expect(before.at(-1)).toBe('conversation.ended');
  });

  it('performs valid frames (null answer) and their events reach the shared log', async () => {
    const id = await chat();
    expect(
      await send(t, id, { id: 'a', payload: { type: 'conversation.context.update', data: { k: 'v' } } }),
    ).toBeNull();
    expect(await send(t, id, { payload: { type: 'user.message.send', text: 'x'.repeat(4096) } })).toBeNull();
    const types = await typesOf(t, id);
    expect(types.slice(0, 4)).toEqual([
      'conversation.setup',
      'conversation.started',
      'conversation.context.updated',
      'user.message.received',
    ]);
    const [, , update] = await eventsOf(t, id);
    expect(update?.payload).toEqual({
      type: 'conversation.context.updated',
      data: { k: 'v' },
      trigger_response: false,
    });
  });

  it('holds context updates made while queued until conversation.started, with the ids the answers gave', async () => {
    const id = await chat();
    const injected = await t.service.injectConversationContext(t.writer, { conversation_id: id }, {}, {
      data: { plan: 'gold' },
      trigger_response: true,
    } as never);
    expect(await send(t, id, { payload: { type: 'conversation.context.update', data: { tier: '2' } } })).toBeNull();
    expect(injected.context).toEqual({ plan: 'gold' });
    expect(await typesOf(t, id)).toEqual(['conversation.setup']);
    await send(t, id, { payload: { type: 'conversation.start' } });
    const events = await eventsOf(t, id);
    expect(events.map((event) => event.payload.type)).toEqual([
      'conversation.setup',
      'conversation.started',
      'conversation.context.updated',
      'conversation.context.updated',
    ]);
    expect(events[2]).toMatchObject({
      id: injected.event_id,
      payload: { data: { plan: 'gold' }, trigger_response: true },
    });
    expect(events[3]?.payload).toMatchObject({ data: { tier: '2' }, trigger_response: false });
    expect(Date.parse(events[2]?.created_at ?? '')).toBeGreaterThanOrEqual(Date.parse(events[1]?.created_at ?? ''));
  });

  it('starts a chat ended while queued first: setup, started, ended', async () => {
    const id = await chat();
    expect(await send(t, id, { payload: { type: 'conversation.end' } })).toBeNull();
    expect(await typesOf(t, id)).toEqual(['conversation.setup', 'conversation.started', 'conversation.ended']);
    const record = await t.service.getConversation(t.writer, { conversation_id: id });
    expect(record).toMatchObject({ status: 'completed', duration_sec: 0 });
    expect(record.started_at).not.toBeNull();
  });

  it('a server.error id resumes the session and the stream right where it was sent', async () => {
    const id = await chat();
    await send(t, id, { payload: { type: 'conversation.start' } });
    const error = await send(t, id, 'not json');
    await send(t, id, { payload: { type: 'user.message.send', text: 'after' } });
    const session = await t.service.openSession(t.writer, id, error?.id);
    const first = await session.events.next();
    expect(first.value?.payload).toEqual({ type: 'user.message.received', text: 'after' });
    session.events.close();
    const stream = await t.service.openEventStream(t.writer, id, error?.id);
    expect(stream.status === 200 && (await stream.events.next()).value?.payload.type).toBe('user.message.received');
  });

  it('the session object handles frames for its conversation', async () => {
    const id = await chat();
    const session = await t.service.openSession(t.writer, id);
    expect(await session.handleFrame('{"payload":{"type":"conversation.start"}}')).toBeNull();
    const seen: ServerEvent[] = [];
    for (let i = 0; i < 2; i++) {
      const next = await session.events.next();
      if (!next.done) seen.push(next.value);
    }
    expect(seen.map((e) => e.payload.type)).toEqual(['conversation.setup', 'conversation.started']);
    expect((await session.handleFrame('{}', true))?.payload.type).toBe('server.error');
    session.events.close();
  });
});
