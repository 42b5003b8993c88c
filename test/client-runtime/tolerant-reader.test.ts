/**
 * The generated client reads a service that has grown: over real SSE and a real `ws` session, with the generated
 * (closed, strict) `ServerEvent` validator, an event with members it does not know is delivered with them, an event
 * of a type it does not know is delivered as it came or skipped, and `strict` throws as the schemas say; a response
 * body with an unknown member is returned with it, and `responseValidator` (the generated routes' validators)
 * refuses it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  createClient,
  type StreamCallOptions,
  ValidationError,
} from '../../generated/src/client.gen.js';
import { routes } from '../../generated/src/server.gen.js';
import { envelope, type TestEvent } from './helpers/events.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import { openSse, sseMessage } from './helpers/sse.js';
import { type SessionServer, startSessionServer } from './helpers/ws-server.js';

let server: TestServer | SessionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A history from a newer service: members and an event type this client's spec does not have. */
const grown: TestEvent[] = [
  { ...envelope(0, { type: 'conversation.started' }), region: 'eu-west' } as TestEvent,
  envelope(1, {
    type: 'conversation.setup',
    channel: { type: 'phone', callee_no: '+14155550123', caller_no: '+14155550100', is_sms_enabled: true },
    direction: 'outbound',
  }),
  envelope(2, { type: 'agent.thought.shared', text: 'checking the order' }),
  envelope(3, { type: 'agent.message.delta', text_delta: 'Hi', generation_id: 'gen_1', language: 'en' }),
  envelope(4, { type: 'conversation.ended', ended_by: 'agent' }),
];
const known = grown.filter((event) => event.payload.type !== 'agent.thought.shared');

/** Serves `events` as one SSE answer and returns a client of it. */
async function sseClient(events: readonly TestEvent[], options: Partial<ClientOptions> = {}) {
  server = await startHttpServer((_req, res) => {
    openSse(res);
    res.end(events.map(sseMessage).join(''));
  });
  return createClient({ baseUrl: server.url, apiKey: 'sk_test', ...options });
}

async function collect<E>(stream: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const stream = (client: ReturnType<typeof createClient>, options: StreamCallOptions = {}) =>
  client.conversations.events('conv_1', options);

describe('reading a grown service over SSE', () => {
  it('delivers events with unknown members (top level, payload, nested channel), the members kept', async () => {
    const client = await sseClient(known);
    expect(await collect(stream(client))).toEqual(known);
  });

  it('delivers an event of an unknown type as it came, between the typed ones', async () => {
    const client = await sseClient(grown);
    const events = await collect(stream(client));
    expect(events).toEqual(grown);
    expect(events[2]?.payload).toEqual({ type: 'agent.thought.shared', text: 'checking the order' });
  });

  it('skips an event of an unknown type with unknownEvents: skip, and counts it as delivered', async () => {
    const client = await sseClient(grown.slice(0, 3));
    const skipping = stream(client, { unknownEvents: 'skip', maxReconnects: 0 });
    const events: unknown[] = [];
    const error = await (async () => {
      for await (const event of skipping) events.push(event);
    })().catch((e: unknown) => e);
    expect(events).toEqual(grown.slice(0, 2));
    // The stream ended before its last event; a resume would start after the skipped one.
    expect(error).toBeInstanceOf(Error);
    expect(skipping.lastEventId).toBe(grown[2]?.id);
  });

  it('delivers an event with an unknown member named __proto__ and leaves Object.prototype alone', async () => {
    const first = known[0] as TestEvent;
    const data = JSON.stringify(first).replace(/^\{/, '{"__proto__":{"toString":"x","hasOwnProperty":"y"},');
    server = await startHttpServer((_req, res) => {
      openSse(res);
      res.end(`id: ${first.id}\ndata: ${data}\n\n${known.slice(1).map(sseMessage).join('')}`);
    });
    const client = createClient({ baseUrl: server.url, apiKey: 'sk_test' });
    const events = await collect(stream(client));
    expect(events).toHaveLength(known.length);
    expect(Object.hasOwn(events[0] as object, '__proto__')).toBe(true);
    expect(typeof Object.prototype.toString).toBe('function');
    expect(typeof Object.prototype.hasOwnProperty).toBe('function');
  });

  it('still throws ValidationError for a known event that breaks its schema otherwise', async () => {
    const broken = envelope(1, { type: 'agent.message.delta', generation_id: 'gen_1', language: 'en' });
    const client = await sseClient([known[0] as TestEvent, broken]);
    const error = await collect(stream(client)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pointer)).toEqual(['/payload/text_delta']);
  });

  it('throws ValidationError for an unknown member with strict: true on the client', async () => {
    const client = await sseClient(known, { strict: true });
    const error = await collect(stream(client)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { pointer: '/region', message: 'must NOT have additional properties', keyword: 'additionalProperties' },
    ]);
  });

  it('throws ValidationError for an unknown event type with strict: true on the call', async () => {
    const client = await sseClient([grown[2] as TestEvent]);
    const error = await collect(stream(client, { strict: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => [issue.pointer, issue.keyword])).toEqual([
      ['/payload/type', 'discriminator'],
    ]);
  });
});

describe('reading a grown service over the WebSocket session', () => {
  async function session(options: Parameters<ReturnType<typeof createClient>['conversations']['session']>[1] = {}) {
    const sessions = await startSessionServer({ history: grown });
    server = sessions;
    const client = createClient({ baseUrl: sessions.url, apiKey: 'sk_test' });
    return client.conversations.session('conv_1', options);
  }

  it('delivers events with unknown members and of an unknown type, to for await and to on()', async () => {
    const opened = await session();
    const deltas: unknown[] = [];
    opened.on('agent.message.delta', (event) => deltas.push(event));
    expect(await collect(opened)).toEqual(grown);
    expect(deltas).toEqual([grown[3]]);
    await opened.closed;
  });

  it('skips an event of an unknown type with unknownEvents: skip', async () => {
    const opened = await session({ unknownEvents: 'skip' });
    expect(await collect(opened)).toEqual(known);
    await opened.closed;
  });

  it('fails with ValidationError on an unknown member with strict: true', async () => {
    const opened = await session({ strict: true });
    await expect(collect(opened)).rejects.toBeInstanceOf(ValidationError);
    await expect(opened.closed).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('reading a grown service: responses', () => {
  /** The spec's `Conversation` example. */
  const conversation = {
    id: 'conv_9Xr4Tb2Kp',
    agent_id: 'ca_7Qk2Lm9Xa@v1',
    livemode: true,
    created_at: '2025-07-02T14:00:00Z',
    direction: 'outbound',
    status: 'completed',
    custom_fields: { resolved: true, topic: 'billing' },
    customer_id: 'cus_2Mz8Rt4Yh',
    channel_type: 'phone',
    channel: {
      type: 'phone',
      callee_no: '+14155550123',
      caller_no: '+14155550100',
      recording_url: 'http://127.0.0.1:4010/recordings/conv_9Xr4Tb2Kp.wav',
    },
    override_config: null,
    started_at: '2025-07-02T14:00:05Z',
    completed_at: '2025-07-02T14:03:05Z',
    failure_reason: null,
    summary: 'The customer asked where their order is; it has shipped.',
    duration_sec: 180,
    sentiment: 'positive',
  };
  const grownConversation = { ...conversation, channel: { ...conversation.channel, is_sms_enabled: true } };

  /** The validator of each success body, from the generated server module's routes. */
  const responseValidator = (method: string, path: string, status: number) =>
    routes.find((route) => route.method === method.toUpperCase() && route.path === path)?.responses[String(status)]
      ?.validator;

  async function answering(body: unknown, options: Partial<ClientOptions> = {}) {
    server = await startHttpServer((_req, res) => sendJson(res, 200, body));
    return createClient({ baseUrl: server.url, apiKey: 'sk_test', maxRetries: 0, ...options });
  }

  it('returns a body with an unknown member, the member kept', async () => {
    const client = await answering(grownConversation);
    expect(await client.conversations.retrieve('conv_9Xr4Tb2Kp')).toEqual(grownConversation);
  });

  it('checks bodies strictly with responseValidator: the example passes, an unknown member throws', async () => {
    const exact = await answering(conversation, { responseValidator });
    expect(await exact.conversations.retrieve('conv_9Xr4Tb2Kp')).toEqual(conversation);
    await server?.close();
    const grownClient = await answering(grownConversation, { responseValidator });
    const error = await grownClient.conversations.retrieve('conv_9Xr4Tb2Kp').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('/channel/is_sms_enabled');
  });
});
