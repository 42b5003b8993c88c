/** openLazySession against a real `ws` server: calls made while its code and validators load, then delegation. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiUserAbortError, CasiError, MessageTooLongError } from '../../templates/client/errors.js';
import { type LazySessionOptions, openLazySession } from '../../templates/client/lazy-session.js';
import type { Session } from '../../templates/client/websocket.js';
import { ValidationError, type ValidationIssue } from '../../templates/shared/errors.js';
import type { Validator } from '../../templates/shared/validation.js';
import { type ClientEvent, conversationEvents, isEnded, type TestEvent, validateTestEvent } from './helpers/events.js';
import { type SessionServer, type SessionServerOptions, startSessionServer } from './helpers/ws-server.js';

const validateClientEvent: Validator<ClientEvent> = Object.assign(
  (data: unknown): data is ClientEvent => {
    const type = (data as { payload?: { type?: unknown } }).payload?.type;
    const ok = type === 'user.message.send' || type === 'conversation.end';
    const issues: ValidationIssue[] = [
      { pointer: '/payload/type', message: 'must be a client event type', keyword: 'enum' },
    ];
    validateClientEvent.errors = ok ? null : issues;
    return ok;
  },
  { errors: null as ValidationIssue[] | null, schemaName: 'ClientEvent' },
);

let server: SessionServer | undefined;
let session: Session<TestEvent, ClientEvent> | undefined;
afterEach(async () => {
  session?.close();
  session = undefined;
  await server?.close();
  server = undefined;
});

/** Starts a server and a lazy session on it; `loads` counts the validator loads. */
async function start(
  serverOptions: SessionServerOptions = {},
  options: Partial<LazySessionOptions<TestEvent, ClientEvent>> = {},
) {
  server = await startSessionServer(serverOptions);
  const loads = { count: 0 };
  session = openLazySession<TestEvent, ClientEvent>({
    url: `${server.url}/conversations/conv_1/session`,
    apiKey: 'sk_test',
    headers: { 'Service-Version': '2025-06-19' },
    serviceVersion: '2025-06-19',
    loadValidators: async () => {
      loads.count++;
      return { server: validateTestEvent, client: validateClientEvent };
    },
    isTerminal: isEnded,
    reconnectDelayMs: 5,
    ...options,
  });
  return { server, session, loads };
}

const say = (text: string): ClientEvent => ({ payload: { type: 'user.message.send', text } });

describe('openLazySession', () => {
  it('passes on handlers, sends and iteration made while loading, in order', async () => {
    const { server, session, loads } = await start({ history: conversationEvents(3).slice(0, 2) });
    expect(session.state).toBe('connecting');
    const completed: string[] = [];
    session.on('agent.message.completed', (event: TestEvent) => completed.push(String(event.payload.text)));
    const off = session.on('agent.message.delta', () => completed.push('never'));
    off();
    session.send(say('one'));
    session.send(say('two'));
    const events = session[Symbol.asyncIterator]();
    await session.ready;
    expect(session.state).toBe('open');
    expect(loads.count).toBe(1);
    expect((await events.next()).value?.payload.type).toBe('conversation.started');
    await expect.poll(() => completed).toEqual(['You said: one', 'You said: two']);
    expect(server.connections[0]?.received).toEqual([JSON.stringify(say('one')), JSON.stringify(say('two'))]);
    expect(() => session.send({ payload: { type: 'user.dance' } } as unknown as ClientEvent)).toThrow(ValidationError);
  });

  it('refuses a too-long text at once, before anything has loaded', async () => {
    const { session } = await start();
    expect(() => session.send(say('x'.repeat(4097)))).toThrow(MessageTooLongError);
    await session.ready;
  });

  it('fails the session, sending nothing, when an event sent while loading is invalid', async () => {
    const { server, session } = await start();
    session.send(say('fine'));
    session.send({ payload: { type: 'user.dance' } } as unknown as ClientEvent);
    await expect(session.ready).rejects.toBeInstanceOf(ValidationError);
    await expect(session.closed).rejects.toThrow('/payload/type');
    expect(session.state).toBe('closed');
    await expect(session[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(ValidationError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections.flatMap((c) => c.received)).toEqual([]);
  });

  it('opens no socket when closed while loading', async () => {
    const { server, session } = await start();
    session.close();
    expect(session.state).toBe('closed');
    expect(() => session.send(say('late'))).toThrow(CasiError);
    await expect(session.ready).rejects.toBeInstanceOf(ApiUserAbortError);
    await session.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toHaveLength(0);
  });

  it('loads no validator when validate is false', async () => {
    const { server, session, loads } = await start({}, { validate: false });
    session.send({ payload: { type: 'user.dance' } } as unknown as ClientEvent);
    await session.ready;
    await expect.poll(() => server.connections[0]?.received.length).toBe(1);
    expect(loads.count).toBe(0);
  });

  it('rejects ready and closed with a CasiError when loading fails', async () => {
    const { session } = await start({}, { loadValidators: () => Promise.reject(new Error('chunk failed')) });
    const error = await session.ready.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CasiError);
    expect((error as Error).cause).toMatchObject({ message: 'chunk failed' });
    await expect(session.closed).rejects.toBeInstanceOf(CasiError);
    expect(session.state).toBe('closed');
  });
});
