/**
 * The SSE stream over real HTTP: history replay, `Last-Event-ID` resume, 204 after the end, 404 after retention
 * (fast-forwarded clock), the wire format and heartbeats, and many subscribers (SSE and WebSocket together)
 * seeing one sequence.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import {
  createScenarioAgents,
  idsOf,
  readUntil,
  readUntilType,
  type ScenarioAgents,
  startConversation,
  typesOf,
  WAIT_MS,
} from './fixtures.js';
import { type Harness, startServer } from './harness.js';

const RETENTION_SECONDS = 60;
const HEARTBEAT_MS = 100;

let h: Harness;
let agents: ScenarioAgents;

beforeAll(async () => {
  h = await startServer({
    env: { CASI_EVENT_RETENTION_SECONDS: String(RETENTION_SECONDS) },
    app: { sseHeartbeatMs: HEARTBEAT_MS },
  });
  agents = await createScenarioAgents(h.writer);
});
afterAll(async () => {
  await h.close();
});

const signal = () => AbortSignal.timeout(WAIT_MS);

/** A chat that has been started, answered once and ended through a session; returns its id, token and events. */
async function endedChat() {
  const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
  const session = h.writer.conversations.session(created.id);
  try {
    session.send({ payload: { type: 'user.message.send', text: 'Hi' } });
    session.send({ payload: { type: 'conversation.end' } });
    const events = await readUntil(session);
    return { id: created.id, token: created.channel.token, events };
  } finally {
    session.close();
  }
}

/** A raw GET of the stream (for what the client does not expose: status codes, fields, comments). */
function rawStream(id: string, headers: Record<string, string> = {}, abort = signal()) {
  return fetch(`${h.baseUrl}/conversations/${id}/events`, {
    headers: { authorization: 'Bearer key_write', accept: 'text/event-stream', ...headers },
    signal: abort,
  });
}

describe('replay and resume', () => {
  let chat: Awaited<ReturnType<typeof endedChat>>;
  beforeAll(async () => {
    chat = await endedChat();
  });

  it('replays the whole history to a new subscriber', async () => {
    const replayed = await readUntil(h.writer.conversations.events(chat.id, { signal: signal() }));
    expect(replayed).toEqual(chat.events);
    expect(typesOf(replayed).at(-1)).toBe('conversation.ended');
  });

  it('resumes after Last-Event-ID, with the conversation token', async () => {
    const after = chat.events[2]?.id;
    const resumed = await readUntil(
      h.client().conversations.events(chat.id, { token: chat.token, lastEventId: after, signal: signal() }),
    );
    expect(idsOf(resumed)).toEqual(idsOf(chat.events.slice(3)));
  });

  it('answers 204 after the last event of an ended conversation (the client ends quietly)', async () => {
    const last = chat.events.at(-1)?.id ?? '';
    expect(await readUntil(h.writer.conversations.events(chat.id, { lastEventId: last, signal: signal() }))).toEqual(
      [],
    );
    const response = await rawStream(chat.id, { 'last-event-id': last });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('refuses an unknown Last-Event-ID with 400 unknown_event_id', async () => {
    const stream = h.writer.conversations.events(chat.id, { lastEventId: 'ev_unknown000', signal: signal() });
    const reading = readUntil(stream);
    await expect(reading).rejects.toBeInstanceOf(BadRequestError);
    await expect(reading).rejects.toMatchObject({ code: 'unknown_event_id' });
  });

  it('refuses a Last-Event-ID that is not an event id with 400 invalid_request naming the header', async () => {
    const response = await rawStream(chat.id, { 'last-event-id': 'nope' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'invalid_request',
      data: [{ in: 'header', pointer: '/last-event-id' }],
    });
  });

  it('frames each event as id and JSON data after retry: 1000', async () => {
    const response = await rawStream(chat.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.startsWith('retry: 1000\n')).toBe(true);
    const blocks = text.split('\n\n').filter((block) => block.startsWith('id: '));
    const parsed = blocks.map((block) => {
      const [idLine = '', dataLine = ''] = block.split('\n');
      return { id: idLine.slice('id: '.length), event: JSON.parse(dataLine.slice('data: '.length)) as ServerEvent };
    });
    expect(parsed.map((p) => p.id)).toEqual(idsOf(chat.events));
    expect(parsed.map((p) => p.event)).toEqual(chat.events);
  });

  it('writes the events already in the log together: one HTTP chunk for the whole history', async () => {
    const chunks = await rawChunks(`/conversations/${chat.id}/events`);
    const events = chunks
      .slice(1)
      .join('')
      .split('\n\n')
      .filter((block) => block.startsWith('id: '));
    expect(chunks[0]).toBe('retry: 1000\n\n');
    expect(events).toHaveLength(chat.events.length);
    expect(chat.events.length).toBeGreaterThan(2);
    expect(chunks).toHaveLength(2);
  });
});

/** GETs `path` over a plain socket and returns the chunks of its chunked body (one per server write), in order. */
async function rawChunks(path: string): Promise<string[]> {
  const { hostname: host, port } = new URL(h.baseUrl);
  const socket = connect({ host, port: Number(port) });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer key_write\r\n\r\n`);
  let raw = '';
  for await (const data of socket) {
    raw += (data as Buffer).toString('latin1');
    if (raw.endsWith('\r\n0\r\n\r\n')) break;
  }
  socket.destroy();
  const head = raw.indexOf('\r\n\r\n');
  expect(raw.slice(0, head)).toMatch(/transfer-encoding: chunked/i);
  const chunks: string[] = [];
  for (let at = head + 4; ; ) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.slice(at, lineEnd), 16);
    if (size === 0) return chunks;
    chunks.push(Buffer.from(raw.slice(lineEnd + 2, lineEnd + 2 + size), 'latin1').toString('utf8'));
    at = lineEnd + 2 + size + 2;
  }
}

describe('heartbeats', () => {
  it('sends a comment when a live stream is silent', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const abort = new AbortController();
    const response = await rawStream(created.id, {}, AbortSignal.any([abort.signal, signal()]));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    try {
      for (let reads = 0; reads < 50 && !text.includes(': heartbeat\n'); reads++) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } finally {
      abort.abort();
    }
    expect(text).toMatch(/^retry: 1000\n\nid: ev_\w+\ndata: \{.*"conversation\.setup".*\}\n\n/);
    expect(text).toContain(': heartbeat\n');
  });
});

describe('many subscribers', () => {
  it('gives SSE streams and WebSocket sessions, early and late, the same sequence', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const { id, channel } = created;
    const anonymous = h.client();
    const driver = h.writer.conversations.session(id);
    const early = [
      readUntil(h.writer.conversations.events(id, { signal: signal() })),
      readUntil(anonymous.conversations.events(id, { token: channel.token, signal: signal() })),
    ];
    const watcher = anonymous.conversations.session(id, { token: channel.token });
    try {
      const watched = readUntil(watcher);
      driver.send({ payload: { type: 'conversation.start' } });
      driver.send({ payload: { type: 'user.message.send', text: 'What is the weather?' } });
      const driven = readUntilType(driver, 'agent.message.completed');
      expect(typesOf(await driven)).toContain('agent.tool_call.returned');
      const late = readUntil(h.reader.conversations.events(id, { signal: signal() }));
      driver.send({ payload: { type: 'user.message.send', text: '/hangup' } });
      const rest = await readUntil(driver);
      expect(rest.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'agent' });
      const reference = [...(await driven), ...rest];
      const all = await Promise.all([...early, late, watched]);
      for (const events of all) expect(idsOf(events)).toEqual(idsOf(reference));
    } finally {
      driver.close();
      watcher.close();
    }
  });
});

describe('retention', () => {
  it('answers 404 event_stream_expired on the stream, the session and token refresh once it is over', async () => {
    const chat = await endedChat();
    await h.advance((RETENTION_SECONDS - 1) * 1000);
    expect(await readUntil(h.writer.conversations.events(chat.id, { signal: signal() }))).toHaveLength(
      chat.events.length,
    );
    await h.advance(1000);

    const stream = readUntil(h.writer.conversations.events(chat.id, { signal: signal() }));
    await expect(stream).rejects.toBeInstanceOf(NotFoundError);
    await expect(stream).rejects.toMatchObject({ code: 'event_stream_expired' });
    const session = h.writer.conversations.session(chat.id);
    await expect(session.ready).rejects.toMatchObject({ status: 404, code: 'event_stream_expired' });
    await expect(h.writer.conversations.refreshToken(chat.id)).rejects.toMatchObject({
      status: 404,
      code: 'event_stream_expired',
    });
    expect((await h.writer.conversations.retrieve(chat.id)).status).toBe('completed');
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
