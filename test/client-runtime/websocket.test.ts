/**
 * openSession against a real `ws` server: round trip, limits, validation, resume after drops (a silent, dead
 * connection included), queued sends, auth, the close after the end, and the buffer nobody reads.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import {
  ApiUserAbortError,
  AuthenticationError,
  CasiError,
  MessageTooLongError,
} from '../../templates/client/errors.js';
import type { WebSocketConstructor } from '../../templates/client/socket.js';
import {
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  openSession,
  type Session,
  type SessionOptions,
} from '../../templates/client/websocket.js';
import { ValidationError, type ValidationIssue } from '../../templates/shared/errors.js';
import type { Validator } from '../../templates/shared/validation.js';
import { type ClientEvent, conversationEvents, isEnded, type TestEvent, validateTestEvent } from './helpers/events.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { type SessionServer, type SessionServerOptions, startSessionServer } from './helpers/ws-server.js';

let server: SessionServer | undefined;
let session: Session<TestEvent, ClientEvent> | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  session?.close();
  session = undefined;
  await proxy?.close();
  proxy = undefined;
  await server?.close();
  server = undefined;
});

async function start(
  serverOptions: SessionServerOptions = {},
  options: Partial<SessionOptions<TestEvent, ClientEvent>> = {},
) {
  server = await startSessionServer(serverOptions);
  session = openSession<TestEvent, ClientEvent>({
    url: `${server.url}/conversations/conv_1/session`,
    apiKey: 'sk_test',
    headers: { 'Service-Version': '2025-06-19' },
    serviceVersion: '2025-06-19',
    serverValidator: validateTestEvent,
    isTerminal: isEnded,
    reconnectDelayMs: 5,
    ...options,
  });
  return { server, session };
}

/** Polls `condition` every 5 ms for at most `ms`. */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads events until `count` arrived or the iteration ended. */
async function take(source: AsyncIterable<TestEvent>, count: number): Promise<TestEvent[]> {
  const out: TestEvent[] = [];
  if (count === 0) return out;
  for await (const event of source) {
    out.push(event);
    if (out.length >= count) break;
  }
  return out;
}

const say = (text: string): ClientEvent => ({ payload: { type: 'user.message.send', text } });

describe('openSession', () => {
  it('replays the history, then round-trips a message', async () => {
    const { server, session } = await start({ history: conversationEvents(3).slice(0, 2) });
    await session.ready;
    expect(server.connections[0]?.headers).toMatchObject({
      authorization: 'Bearer sk_test',
      'service-version': '2025-06-19',
    });
    const history = await take(session, 2);
    expect(history.map((event) => event.payload.type)).toEqual(['conversation.started', 'agent.message.delta']);
    const completed: TestEvent[] = [];
    const off = session.on('agent.message.completed', (event) => completed.push(event));
    session.send(say('hello'));
    const reply = await take(session, 4);
    expect(reply.map((event) => event.payload.type)).toEqual([
      'user.message.received',
      'agent.message.delta',
      'agent.message.delta',
      'agent.message.completed',
    ]);
    expect(completed.map((event) => event.payload.text)).toEqual(['You said: hello']);
    expect(JSON.parse(server.connections[0]?.received[0] ?? '')).toEqual(say('hello'));
    off();
    session.send(say('again'));
    await take(session, 4);
    expect(completed).toHaveLength(1);
  });

  it('refuses a text over 4096 characters before sending anything', async () => {
    const { server, session } = await start();
    await session.ready;
    expect(() => session.send(say('x'.repeat(4097)))).toThrow(MessageTooLongError);
    expect(() => session.send(say('x'.repeat(4097)))).toThrow(/4097 characters long; the limit is 4096/);
    session.send(say('x'.repeat(4096)));
    session.send(say('😀'.repeat(4096)));
    await until(() => (server.connections[0]?.received.length ?? 0) === 2);
    const lengths = server.connections[0]?.received.map(
      (frame) => [...(JSON.parse(frame) as ClientEvent & { payload: { text: string } }).payload.text].length,
    );
    expect(lengths).toEqual([4096, 4096]);
  });

  it('validates client events and names the pointer, sending nothing', async () => {
    const clientValidator: Validator<ClientEvent> = Object.assign(
      (data: unknown): data is ClientEvent => {
        const type = (data as { payload?: { type?: unknown } }).payload?.type;
        const ok = type === 'user.message.send' || type === 'conversation.end';
        const issues: ValidationIssue[] = [
          { pointer: '/payload/type', message: 'must be a client event type', keyword: 'enum' },
        ];
        clientValidator.errors = ok ? null : issues;
        return ok;
      },
      { errors: null as ValidationIssue[] | null, schemaName: 'ClientEvent' },
    );
    const { server, session } = await start({}, { clientValidator });
    await session.ready;
    const bad = { payload: { type: 'user.message.shout', text: 'hi' } } as unknown as ClientEvent;
    expect(() => session.send(bad)).toThrow(ValidationError);
    expect(() => session.send(bad)).toThrow('/payload/type');
    session.send(say('ok'));
    await until(() => (server.connections[0]?.received.length ?? 0) >= 1);
    expect(server.connections[0]?.received).toEqual([JSON.stringify(say('ok'))]);
  });

  it('fails with a ValidationError naming the pointer of an invalid server event', async () => {
    const bad = { ...conversationEvents(1)[0], payload: { type: 7 } } as unknown as TestEvent;
    const { session } = await start({ history: [bad] });
    const error = await take(session, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('/payload/type');
    await expect(session.closed).rejects.toBeInstanceOf(ValidationError);
    expect(session.state).toBe('closed');
  });

  it('resumes after 20 forced drops with last_event_id: no loss, no duplicate', async () => {
    const { server, session } = await start({ overlap: 2 });
    await session.ready;
    const received: TestEvent[] = [];
    const reading = (async () => {
      for await (const event of session) received.push(event);
    })();
    for (let drop = 0; drop < 20; drop++) {
      for (let i = 0; i < 15; i++) server.publish({ type: 'user.dtmf.received', digits: `${drop}.${i}` });
      // Drop right after the burst: frames still in flight are lost and must come back through the replay.
      for (const connection of server.connections) connection.socket.terminate();
      for (let i = 0; i < 5; i++) server.publish({ type: 'agent.dtmf.sent', digits: `${drop}.${i}` });
      await until(() => server.connections.length === drop + 2);
    }
    server.publish({ type: 'conversation.ended', ended_by: 'agent' });
    await reading;
    expect(received.map((event) => event.id)).toEqual(server.log.map((event) => event.id));
    expect(server.connections).toHaveLength(21);
    const resumedFrom = server.connections
      .slice(1)
      .map((connection) => connection.url.searchParams.get('last_event_id'));
    expect(resumedFrom.every((id) => id?.startsWith('ev_'))).toBe(true);
  });

  it('queues sends made while reconnecting and flushes them after the reconnect', async () => {
    // The reconnect waits on the token provider until the test has sent, so the window is deterministic.
    let release: (token: string) => void = () => {};
    const gate = new Promise<string>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const { server, session } = await start({}, { token: () => (++calls === 1 ? 'tok_1' : gate) });
    await session.ready;
    server.connections[0]?.socket.terminate();
    await until(() => calls === 2);
    expect(session.state).toBe('reconnecting');
    session.send(say('first'));
    session.send(say('second'));
    release('tok_2');
    await until(() => (server.connections[1]?.received.length ?? 0) === 2);
    expect(server.connections[1]?.received).toEqual([JSON.stringify(say('first')), JSON.stringify(say('second'))]);
    expect(server.connections[0]?.received).toEqual([]);
  });

  it('calls the token provider on every connect and sends no API key with a token', async () => {
    let issued = 0;
    const { server, session } = await start({}, { token: async () => `tok_${++issued}` });
    await session.ready;
    server.connections[0]?.socket.terminate();
    await until(() => server.connections.length === 2);
    expect(server.connections.map((connection) => connection.url.searchParams.get('token'))).toEqual([
      'tok_1',
      'tok_2',
    ]);
    expect(server.connections.every((connection) => connection.headers.authorization === undefined)).toBe(true);
  });

  it('rejects ready with the ApiError family on a refused handshake, without reconnecting', async () => {
    let attempts = 0;
    const { session } = await start({
      refuse: () => {
        attempts++;
        return { status: 401, body: { code: 'token_expired', transient: false, message: 'The token has expired.' } };
      },
    });
    const error = await session.ready.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'token_expired', status: 401 });
    await expect(session.closed).rejects.toBe(error);
    expect(attempts).toBe(1);
    expect(() => session.send(say('late'))).toThrow(CasiError);
  });

  it('retries a refused handshake that is transient', async () => {
    let attempts = 0;
    const { server, session } = await start({
      refuse: () =>
        ++attempts < 3
          ? { status: 503, body: { code: 'service_unavailable', transient: true, message: 'later' } }
          : undefined,
    });
    await session.ready;
    expect(attempts).toBe(3);
    expect(server.connections).toHaveLength(1);
  });

  it('ends iteration at the terminal event and does not reconnect after it', async () => {
    const { server, session } = await start({ history: conversationEvents(3) });
    const events = await take(session, 10);
    expect(events.map((event) => event.payload.type)).toEqual([
      'conversation.started',
      'agent.message.delta',
      'conversation.ended',
    ]);
    server.connections[0]?.socket.terminate();
    await session.closed;
    expect(session.state).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toHaveLength(1);
  });

  it('closes its socket with 1000 after the terminal event, which the server leaves open, and settles closed', async () => {
    const { server, session } = await start({ history: conversationEvents(3) });
    const ended: TestEvent[] = [];
    session.on('conversation.ended', (event) => ended.push(event));
    const outcome = await Promise.race([
      session.closed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 2000)),
    ]);
    expect(outcome).toBe('closed');
    expect(session.state).toBe('closed');
    expect(ended).toHaveLength(1);
    await until(() => server.connections[0]?.closeCode !== undefined);
    expect(server.connections[0]?.closeCode).toBe(1000);
    expect(() => session.send(say('late'))).toThrow(CasiError);
    expect((await take(session, 10)).map((event) => event.payload.type)).toEqual([
      'conversation.started',
      'agent.message.delta',
      'conversation.ended',
    ]);
    expect(server.connections).toHaveLength(1);
  });

  it('refuses sends once the conversation has ended, before the socket has closed', async () => {
    const { server, session } = await start();
    await session.ready;
    let sent: unknown;
    session.on('conversation.ended', () => {
      try {
        session.send(say('too late'));
      } catch (error) {
        sent = error;
      }
    });
    server.publish({ type: 'conversation.ended', ended_by: 'agent' });
    await session.closed;
    expect(sent).toBeInstanceOf(CasiError);
    expect((sent as Error).message).toMatch(/conversation has ended/);
    expect(server.connections[0]?.received).toEqual([]);
  });

  describe('a connection that goes silent without closing (a black hole)', () => {
    /** A session reaching the server through a proxy that can silence the connection. */
    async function behindProxy(options: Partial<SessionOptions<TestEvent, ClientEvent>>) {
      server = await startSessionServer();
      proxy = await startTcpProxy(server.url);
      session = openSession<TestEvent, ClientEvent>({
        url: `${proxy.url}/conversations/conv_1/session`,
        apiKey: 'sk_test',
        serverValidator: validateTestEvent,
        isTerminal: isEnded,
        reconnectDelayMs: 5,
        ...options,
      });
      return { server, proxy, session };
    }

    it('is dropped after idleTimeoutMs without a frame or a ping, and resumed with last_event_id', async () => {
      const { server, proxy, session } = await behindProxy({ idleTimeoutMs: 400 });
      const received: TestEvent[] = [];
      session.on('user.dtmf.received', (event) => received.push(event));
      await session.ready;
      server.publish({ type: 'user.dtmf.received', digits: '1' });
      await until(() => received.length === 1);
      proxy.blackHole();
      server.publish({ type: 'user.dtmf.received', digits: '2' });
      await until(() => server.connections.length === 2, 3000);
      expect(server.connections[1]?.url.searchParams.get('last_event_id')).toBe(server.log[0]?.id);
      await until(() => received.length === 2);
      expect(received.map((event) => event.payload.digits)).toEqual(['1', '2']);
      expect(session.state).toBe('open');
    });

    it('is kept while the server pings', async () => {
      const { server, session } = await behindProxy({ idleTimeoutMs: 300 });
      await session.ready;
      const pinger = setInterval(() => server.connections[0]?.socket.ping(), 100);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        clearInterval(pinger);
      }
      expect(server.connections).toHaveLength(1);
      expect(session.state).toBe('open');
    });

    it('is not watched when idleTimeoutMs is 0', async () => {
      const { server, session } = await behindProxy({ idleTimeoutMs: 0 });
      await session.ready;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.connections).toHaveLength(1);
    });

    it('waits two missed pings of the service (30 s) and a margin by default', () => {
      expect(DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBeGreaterThan(2 * 30_000);
      expect(DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBeLessThanOrEqual(90_000);
    });
  });

  it('keeps at most maxBufferedEvents for a for await nobody runs, and says what was dropped', async () => {
    const { server, session } = await start({}, { maxBufferedEvents: 5 });
    const seen: string[] = [];
    session.on('user.dtmf.received', (event: TestEvent) => seen.push(String(event.payload.digits)));
    await session.ready;
    for (let i = 0; i < 20; i++) server.publish({ type: 'user.dtmf.received', digits: String(i) });
    await until(() => seen.length === 20);
    const late = session[Symbol.asyncIterator]();
    const dropped = await late.next().catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(CasiError);
    expect((dropped as Error).message).toMatch(/^15 events were dropped: more than 5 \(maxBufferedEvents\)/);
    const kept = await take(session, 5);
    expect(kept.map((event) => event.payload.digits)).toEqual(['15', '16', '17', '18', '19']);
    // A reader that is attached is never cut short.
    const reading = take(session, 30);
    for (let i = 20; i < 50; i++) server.publish({ type: 'user.dtmf.received', digits: String(i) });
    expect((await reading).map((event) => event.payload.digits)).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i + 20)),
    );
  });

  it('closes on close() and on an aborted signal', async () => {
    const { server, session } = await start();
    await session.ready;
    const reading = take(session, 10);
    session.close();
    expect(await reading).toEqual([]);
    await session.closed;
    await until(() => server.connections[0]?.socket.readyState === server.connections[0]?.socket.CLOSED);
    const controller = new AbortController();
    const second = openSession<TestEvent, ClientEvent>({
      url: `${server.url}/conversations/conv_1/session`,
      signal: controller.signal,
    });
    await second.ready;
    controller.abort();
    await second.closed;
    expect(second.state).toBe('closed');
    const never = openSession<TestEvent, ClientEvent>({ url: server.url, signal: AbortSignal.abort() });
    await expect(never.ready).rejects.toBeInstanceOf(ApiUserAbortError);
  });

  it('fails without connecting when the token provider throws', async () => {
    const { server, session } = await start(
      {},
      {
        token: () => {
          throw new Error('no token');
        },
      },
    );
    await expect(session.ready).rejects.toThrow('The token provider failed.');
    expect(server.connections).toHaveLength(0);
  });

  describe('where a global, header-less WebSocket exists (as in Node 22+ and browsers)', () => {
    /** `ws` ignoring the third constructor argument, like the global WebSocket; counts its sockets. */
    class HeaderlessWebSocket extends NodeWebSocket {
      static created = 0;
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols);
        HeaderlessWebSocket.created++;
      }
    }
    afterEach(() => {
      vi.unstubAllGlobals();
      HeaderlessWebSocket.created = 0;
    });

    it('opens the session with `ws` in Node, which sends the API key in Authorization', async () => {
      vi.stubGlobal('WebSocket', HeaderlessWebSocket);
      const { server, session } = await start();
      await session.ready;
      expect(server.connections[0]?.headers.authorization).toBe('Bearer sk_test');
      expect(server.connections[0]?.headers['service-version']).toBe('2025-06-19');
      expect(server.connections[0]?.url.searchParams.has('service_version')).toBe(false);
      expect(HeaderlessWebSocket.created).toBe(0);
    });

    it('sends the token and the version in the query through the global one given as the option', async () => {
      vi.stubGlobal('WebSocket', HeaderlessWebSocket);
      const { server, session } = await start(
        {},
        {
          token: 'tok_1',
          WebSocket: HeaderlessWebSocket as unknown as WebSocketConstructor,
        },
      );
      await session.ready;
      const url = server.connections[0]?.url;
      expect(url?.searchParams.get('token')).toBe('tok_1');
      expect(url?.searchParams.get('service_version')).toBe('2025-06-19');
      expect(server.connections[0]?.headers.authorization).toBeUndefined();
      expect(HeaderlessWebSocket.created).toBe(1);
    });

    it('refuses an API key that the global one given as the option cannot send', async () => {
      vi.stubGlobal('WebSocket', HeaderlessWebSocket);
      const { server, session } = await start(
        {},
        { WebSocket: HeaderlessWebSocket as unknown as WebSocketConstructor },
      );
      await expect(session.ready).rejects.toThrow(/cannot send the Authorization header: pass `token`/);
      expect(server.connections).toHaveLength(0);
    });
  });

  it('types on() handlers by payload type', () => {
    type Delta = { id: string; payload: { type: 'agent.message.delta'; text_delta: string } };
    type Ended = { id: string; payload: { type: 'conversation.ended' } };
    const typed = {} as Session<Delta | Ended, ClientEvent>;
    void (() => typed.on('agent.message.delta', (event) => expectTypeOf(event).toEqualTypeOf<Delta>()));
    // @ts-expect-error not a server event type
    void (() => typed.on('agent.message.shout', () => {}));
    // @ts-expect-error not a client event
    void (() => typed.send({ payload: { type: 'conversation.shout' } }));
  });
});
