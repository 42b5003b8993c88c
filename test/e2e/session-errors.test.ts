/**
 * WebSocket session errors: invalid JSON, a binary frame, an unknown type, a schema violation, a text over 4096
 * characters (raw `ws` frames bypass the client's own checks) and an event after the end are each answered by a
 * `server.error` to that socket only, with `source_event_id`, in order after the events before it; the socket stays
 * usable, and resuming after the error's id replays what followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ClientEvent, ServerEvent } from '../../generated/src/types.gen.js';
import {
  idsOf,
  readUntil,
  readUntilType,
  type ScenarioAgents,
  startConversation,
  startScenario,
  typesOf,
  WAIT_MS,
} from './fixtures.js';
import { type Harness, KEYS } from './harness.js';

let h: Harness;
let agents: ScenarioAgents;
beforeAll(async () => ({ h, agents } = await startScenario()));
afterAll(() => h.close());

/** A raw `ws` connection to a session: every text frame it receives, parsed, and a way to wait for one. */
async function rawSession(conversationId: string) {
  const url = `${h.baseUrl.replace('http:', 'ws:')}/conversations/${conversationId}/session`;
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${KEYS.writer}` } });
  const received: ServerEvent[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    received.push(JSON.parse(String(data)) as ServerEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  /** Waits (bounded) for a received event matching `match`, and returns it. */
  async function waitFor(match: (event: ServerEvent) => boolean): Promise<ServerEvent> {
    const deadline = Date.now() + WAIT_MS;
    for (let rounds = 0; rounds < 1000; rounds++) {
      const found = received.find(match);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    throw new Error(`No matching frame within ${WAIT_MS} ms; got ${typesOf(received).join(', ')}`);
  }
  return { socket, received, waitFor };
}

/** The `server.error` whose `source_event_id` is `id` (or that has none, for `undefined`) among `events`. */
const errorFor = (id: string | undefined) => (event: ServerEvent) =>
  event.payload.type === 'server.error' && event.payload.source_event_id === id;

describe('frames the client cannot send (raw ws)', () => {
  it('answers invalid JSON, a binary frame and a text over 4096 characters, then keeps working', async () => {
    const { id } = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const raw = await rawSession(id);
    try {
      raw.socket.send('{"payload": {"type": "user.message.send", "text": "oops"');
      const malformed = await raw.waitFor(errorFor(undefined));
      expect(malformed.payload).toEqual({ type: 'server.error', error: 'malformed_json: The frame is not JSON.' });

      raw.socket.send(Buffer.from(JSON.stringify({ id: 'bin', payload: { type: 'conversation.start' } })), {
        binary: true,
      });
      const binary = await raw.waitFor((e) => e.payload.type === 'server.error' && e !== malformed);
      expect(binary.payload).toMatchObject({ error: expect.stringMatching(/^invalid_request: .*binary/) });

      const long = { id: 'long', payload: { type: 'user.message.send', text: 'x'.repeat(4097) } };
      raw.socket.send(JSON.stringify(long));
      expect((await raw.waitFor(errorFor('long'))).payload).toEqual({
        type: 'server.error',
        error: 'invalid_request: /payload/text: must NOT have more than 4096 characters',
        source_event_id: 'long',
      });

      raw.socket.send(JSON.stringify({ id: 'ok', payload: { type: 'user.message.send', text: 'x'.repeat(4096) } }));
      const completed = await raw.waitFor((e) => e.payload.type === 'agent.message.completed');
      expect(completed.payload).toMatchObject({ text: `You said: ${'x'.repeat(4096)}` });
      expect(raw.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      raw.socket.close();
    }
    const streamed = await readUntil(
      h.writer.conversations.events(id, { signal: AbortSignal.timeout(5_000) }),
      (event) => event.payload.type === 'agent.message.completed',
    );
    expect(typesOf(streamed)).not.toContain('server.error');
  });
});

describe('frames refused by the server (client with validation off)', () => {
  it('answers an unknown type and a schema violation in order, and resumes after the error id', async () => {
    const { id } = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const session = h.writer.conversations.session(id, { validate: false });
    let errorId = '';
    try {
      session.send({ id: 'm1', payload: { type: 'user.message.send', text: 'First' } });
      session.send({ id: 'u1', payload: { type: 'user.dance' } } as unknown as ClientEvent);
      const first = await readUntilType(session, 'server.error');
      // The error comes after every event logged before it: the whole answer to m1.
      expect(typesOf(first).slice(-2)).toEqual(['agent.message.completed', 'server.error']);
      expect(first.at(-1)?.payload).toEqual({
        type: 'server.error',
        error: expect.stringMatching(/^invalid_request: Unknown client event type user\.dance; expected one of /),
        source_event_id: 'u1',
      });
      errorId = first.at(-1)?.id ?? '';

      session.send({ id: 's1', payload: { type: 'user.message.send' } } as unknown as ClientEvent);
      const second = await readUntilType(session, 'server.error');
      expect(second.map((e) => e.payload)).toEqual([
        {
          type: 'server.error',
          error: "invalid_request: /payload/text: must have required property 'text'",
          source_event_id: 's1',
        },
      ]);

      session.send({ id: 'm2', payload: { type: 'user.message.send', text: 'Second' } });
      const after = await readUntilType(session, 'agent.message.completed');
      expect(after[0]?.payload).toEqual({ type: 'user.message.received', text: 'Second' });

      const resumed = h.writer.conversations.session(id, { lastEventId: errorId });
      try {
        const replay = await readUntilType(resumed, 'agent.message.completed');
        expect(idsOf(replay)).toEqual(idsOf(after));
      } finally {
        resumed.close();
      }
    } finally {
      session.close();
    }
  });

  it('answers every event after the end with conversation_ended and keeps the socket open', async () => {
    const { id } = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const session = h.writer.conversations.session(id, { validate: false });
    const raw = await rawSession(id);
    try {
      session.send({ payload: { type: 'conversation.end' } });
      const history = await readUntil(session);
      expect(history.at(-1)?.payload).toMatchObject({ type: 'conversation.ended', ended_by: 'customer' });
      for (const sourceId of ['late-1', 'late-2']) {
        raw.socket.send(JSON.stringify({ id: sourceId, payload: { type: 'user.message.send', text: 'Still there?' } }));
        const late = await raw.waitFor(errorFor(sourceId));
        expect(late.payload).toEqual({
          type: 'server.error',
          error: `conversation_ended: Conversation ${id} has ended.`,
          source_event_id: sourceId,
        });
      }
      expect(raw.socket.readyState).toBe(WebSocket.OPEN);
      expect(raw.received.filter((e) => e.payload.type === 'server.error')).toHaveLength(2);
      expect(typesOf(raw.received).filter((t) => t !== 'server.error')).toEqual(typesOf(history));
    } finally {
      raw.socket.close();
      session.close();
    }
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
