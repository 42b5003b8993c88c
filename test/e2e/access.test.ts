/**
 * Access and the HTTP error model over real HTTP: 401 (no key, unknown key, a token on REST), 403 (read key on a
 * write, token of another conversation), 404 (another organisation), token expiry and refresh, Service-Version,
 * unknown routes and methods, malformed and oversized bodies, the rate limit, and a 500 that hides internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../generated/src/client.gen.js';
import { createMemoryStore } from '../../reference/store/memory.js';
import {
  agentConfig,
  createScenarioAgents,
  readUntil,
  readUntilType,
  rejection,
  type ScenarioAgents,
  startConversation,
  typesOf,
} from './fixtures.js';
import { type Harness, KEYS, startServer, untyped } from './harness.js';

const TTL_SECONDS = 60;

let h: Harness;
let agents: ScenarioAgents;
/** A live chat of org_a and its token. */
let chat = { id: '', token: '' };

beforeAll(async () => {
  h = await startServer({ env: { CASI_TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });
  agents = await createScenarioAgents(h.writer);
  const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
  chat = { id: created.id, token: created.channel.token };
});
afterAll(async () => {
  await h.close();
});

const signal = () => AbortSignal.timeout(5_000);

/** Reads a stream (to its end or its first error). */
const streamWith = (client = h.writer, id = chat.id, token?: string) =>
  readUntil(
    client.conversations.events(id, { signal: signal(), ...(token === undefined ? {} : { token }) }),
    () => true,
  );

describe('authentication', () => {
  it('answers 401 unauthorized without a key, with an unknown key, and with a malformed header', async () => {
    for (const client of [
      h.client(),
      h.client('key_unknown'),
      h.client(undefined, { defaultHeaders: { Authorization: 'Basic abc' } }),
    ]) {
      const answer = client.conversations.list().firstPage();
      await expect(answer).rejects.toBeInstanceOf(AuthenticationError);
      await expect(answer).rejects.toMatchObject({ status: 401, code: 'unauthorized', transient: false });
    }
    await expect(streamWith(h.client())).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    await expect(h.client().conversations.session(chat.id).ready).rejects.toMatchObject({ status: 401 });
  });

  it('answers 401 to a conversation token on a REST route, even a valid one', async () => {
    const { response, error } = await untyped(h.client()).request('get', `/conversations/${chat.id}`, {
      params: { query: { token: chat.token } },
    });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: 'unauthorized' });
  });

  it('answers 403 forbidden to a read key on every kind of write, and lets it read', async () => {
    const writes = [
      () =>
        h.reader.conversationalAgents.create({
          name: 'X',
          description: '',
          config: agentConfig(),
          postprocess_agents: [],
        }),
      () => h.reader.conversationalAgents.update(agents.agentId, { name: 'Y' }),
      () => h.reader.proceduralAgents.delete(agents.proceduralId),
      () => h.reader.conversations.create({ agent_id: agents.agentId, channel: { type: 'chat_async' } }),
      () => h.reader.conversations.injectContext(chat.id, { data: { a: 'b' } }),
      () => h.reader.conversations.refreshToken(chat.id),
    ];
    for (const write of writes) {
      const answer = write();
      await expect(answer).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(answer).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    }
    expect((await h.reader.conversations.retrieve(chat.id)).id).toBe(chat.id);
    expect(await readUntil(h.reader.conversations.events(chat.id, { signal: signal() }), () => true)).toHaveLength(1);
  });

  it('answers 401 to a request without credentials, even one that lacks Service-Version or a valid body too', async () => {
    const bare = await fetch(`${h.baseUrl}/conversations`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ code: 'unauthorized' });
    const badWrite = await fetch(`${h.baseUrl}/conversations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Service-Version': '1999-01-01' },
      body: '{"nope": 1}',
    });
    expect(badWrite.status).toBe(401);
  });

  it('answers 403 to a read key on a write whatever its body, before reading it', async () => {
    const headers = { Authorization: `Bearer ${KEYS.reader}`, 'Service-Version': '2025-06-19' };
    const json = { ...headers, 'Content-Type': 'application/json' };
    const attempts: [string, string, RequestInit][] = [
      ['POST', '/procedural_agents', { headers: json, body: '{}' }],
      ['POST', '/procedural_agents', { headers }],
      ['POST', '/conversations', { headers: json, body: '{"agent_id": 5}' }],
      ['PUT', `/conversational_agents/${agents.agentId}`, { headers: json, body: 'not json' }],
      ['POST', `/conversations/${chat.id}/context`, { headers: json, body: '[]' }],
    ];
    for (const [method, path, init] of attempts) {
      const answer = await fetch(`${h.baseUrl}${path}`, { method, ...init });
      expect([method, path, answer.status]).toEqual([method, path, 403]);
      expect(await answer.json()).toMatchObject({ code: 'forbidden' });
    }
  });

  it('answers 404 not_found to an id in a path that names nothing, whatever its form', async () => {
    const headers = { Authorization: `Bearer ${KEYS.writer}`, 'Service-Version': '2025-06-19' };
    const json = { ...headers, 'Content-Type': 'application/json' };
    const attempts: [string, string, RequestInit][] = [
      ['GET', '/conversations/does-not-exist', { headers }],
      ['GET', '/conversations/conv_does_not_exist', { headers }],
      ['GET', '/conversations/conv_0000-1111', { headers }],
      ['GET', '/conversational_agents/nope', { headers }],
      ['PUT', '/conversational_agents/ca_does-not-exist', { headers: json, body: '{"name": "X"}' }],
      ['DELETE', '/procedural_agents/pa_x@v1', { headers }],
      ['GET', '/customers/someone', { headers }],
      ['GET', '/procedures/proc.1', { headers }],
      ['POST', '/conversations/conv_missing!/token/refresh', { headers }],
    ];
    for (const [method, path, init] of attempts) {
      const answer = await fetch(`${h.baseUrl}${path}`, { method, ...init });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(await answer.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('answers 404 not_found for every resource of another organisation, on REST, SSE and the session', async () => {
    const reads = [
      () => h.stranger.conversations.retrieve(chat.id),
      () => h.stranger.conversationalAgents.retrieve(agents.agentId),
      () => h.stranger.proceduralAgents.retrieve(agents.proceduralId),
      () => h.stranger.conversations.injectContext(chat.id, { data: { a: 'b' } }),
      () => streamWith(h.stranger),
    ];
    for (const read of reads) {
      const answer = read();
      await expect(answer).rejects.toBeInstanceOf(NotFoundError);
      await expect(answer).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
    await expect(h.stranger.conversations.session(chat.id).ready).rejects.toMatchObject({ status: 404 });
  });

  it('accepts a token only for its own conversation (403 elsewhere)', async () => {
    const other = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    expect(await streamWith(h.client(), chat.id, chat.token)).toHaveLength(1);
    const foreign = streamWith(h.client(), other.id, chat.token);
    await expect(foreign).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(foreign).rejects.toMatchObject({ code: 'forbidden' });
    const session = h.client().conversations.session(other.id, { token: chat.token });
    await expect(session.ready).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('conversation tokens', () => {
  it('replaces the token on refresh: the old one is 401 token_expired at once, the new one works', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const refreshed = await h.writer.conversations.refreshToken(created.id);
    expect(refreshed.token).not.toBe(created.channel.token);
    // The service's clock stands still here: the new token expires 1 ms after the one it replaces.
    expect(Date.parse(refreshed.expires_at)).toBe(h.clock.now() + TTL_SECONDS * 1000 + 1);
    const old = streamWith(h.client(), created.id, created.channel.token);
    await expect(old).rejects.toBeInstanceOf(AuthenticationError);
    await expect(old).rejects.toMatchObject({ code: 'token_expired' });
    expect(await streamWith(h.client(), created.id, refreshed.token)).toHaveLength(1);
    const session = h.client().conversations.session(created.id, { token: refreshed.token });
    try {
      await session.ready;
    } finally {
      session.close();
    }
  });

  it('closes the stream and session a token opened when a refresh replaces it; a token provider goes on', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const oldToken = created.channel.token;
    const stream = h
      .client()
      .conversations.events(created.id, { token: oldToken, signal: signal() })
      [Symbol.asyncIterator]();
    const fixed = h.client().conversations.session(created.id, { token: oldToken, reconnectDelayMs: 10 });
    // The reconnect may come before the refresh's answer reaches the test: the provider waits for that answer.
    let refreshed: Promise<string> | undefined;
    let handshakes = 0;
    const provider = () => {
      handshakes++;
      return refreshed ?? oldToken;
    };
    const provided = h.client().conversations.session(created.id, { token: provider, reconnectDelayMs: 10 });
    try {
      await Promise.all([fixed.ready, provided.ready]);
      expect((await stream.next()).value?.payload.type).toBe('conversation.setup');
      expect(typesOf(await readUntilType(provided, 'conversation.setup'))).toEqual(['conversation.setup']);
      refreshed = h.writer.conversations.refreshToken(created.id).then((answer) => answer.token);
      await refreshed;
      const expired = { status: 401, code: 'token_expired' };
      await expect(fixed.closed).rejects.toMatchObject(expired);
      await expect(stream.next()).rejects.toMatchObject(expired);
      // The provider's session reconnects with the new token and resumes: nothing lost, nothing repeated.
      provided.send({ payload: { type: 'conversation.start' } });
      expect(typesOf(await readUntilType(provided, 'conversation.started'))).toEqual(['conversation.started']);
      expect(handshakes).toBe(2);
      expect(provided.state).toBe('open');
    } finally {
      fixed.close();
      provided.close();
    }
  });

  it('closes the stream and session a token opened when the token expires', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const stream = h
      .client()
      .conversations.events(created.id, { token: created.channel.token, signal: signal() })
      [Symbol.asyncIterator]();
    const session = h
      .client()
      .conversations.session(created.id, { token: created.channel.token, reconnectDelayMs: 10 });
    try {
      await session.ready;
      expect((await stream.next()).value?.payload.type).toBe('conversation.setup');
      await h.advance(TTL_SECONDS * 1000);
      const expired = { status: 401, code: 'token_expired' };
      await expect(session.closed).rejects.toMatchObject(expired);
      await expect(stream.next()).rejects.toMatchObject(expired);
    } finally {
      session.close();
    }
  });

  it('expires a token after CASI_TOKEN_TTL_SECONDS', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    await h.advance(TTL_SECONDS * 1000 - 1);
    expect(await streamWith(h.client(), created.id, created.channel.token)).toHaveLength(1);
    await h.advance(1);
    await expect(streamWith(h.client(), created.id, created.channel.token)).rejects.toMatchObject({
      status: 401,
      code: 'token_expired',
    });
    const session = h.client().conversations.session(created.id, { token: created.channel.token });
    await expect(session.ready).rejects.toMatchObject({ status: 401, code: 'token_expired' });
  });
});

describe('the HTTP error model', () => {
  it('requires Service-Version 2025-06-19 on REST (400), and checks a given one on streams', async () => {
    const stripping = h.client(KEYS.writer, {
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.delete('service-version');
        return fetch(request);
      },
    });
    await expect(stripping.conversations.list().firstPage()).rejects.toMatchObject({
      status: 400,
      code: 'missing_service_version',
    });
    expect(await streamWith(stripping)).toHaveLength(1);
    const wrong = await untyped(h.writer).request('get', '/conversations', {
      headers: { 'Service-Version': '2024-01-01' },
    });
    expect(wrong.response.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: 'unsupported_service_version' });
    const wrongQuery = await untyped(h.writer).request('get', `/conversations/${chat.id}/events`, {
      params: { query: { service_version: '2024-01-01' } },
      parseAs: 'text',
    });
    expect(wrongQuery.response.status).toBe(400);
  });

  it('answers 404 route_not_found and 405 method_not_allowed with Allow', async () => {
    const unknown = await untyped(h.writer).request('get', '/conversations_archive');
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'route_not_found' });
    const wrongMethod = await untyped(h.writer).request('delete', '/conversations');
    expect(wrongMethod.response.status).toBe(405);
    expect(wrongMethod.response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(wrongMethod.error).toMatchObject({ code: 'method_not_allowed' });
  });

  it('answers 400 to a plain GET of the session endpoint', async () => {
    const plain = await untyped(h.writer).request('get', `/conversations/${chat.id}/session`);
    expect(plain.response.status).toBe(400);
    expect(plain.error).toMatchObject({ code: 'invalid_request', data: [{ in: 'header', pointer: '/upgrade' }] });
  });

  it('answers 400 malformed_json, 400 invalid_request with pointers, and 413 over 1 MiB', async () => {
    const malformed = await untyped(h.writer).request('post', '/conversational_agents', {
      body: {},
      bodySerializer: () => '{"name": "Ava", ',
    });
    expect(malformed.response.status).toBe(400);
    expect(malformed.error).toMatchObject({ code: 'malformed_json' });

    const error = await rejection(h.writer.conversationalAgents.create({ name: 42 } as never), BadRequestError);
    expect(error.code).toBe('invalid_request');
    expect(error.data).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'body', pointer: '/name' })]));

    const huge = h.writer.conversationalAgents.create({
      name: 'Big',
      description: 'x'.repeat(1024 * 1024 + 1),
      config: agentConfig(),
      postprocess_agents: [],
    });
    await expect(huge).rejects.toBeInstanceOf(ApiError);
    await expect(huge).rejects.toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('answers CORS requests from any origin by default', async () => {
    const { response } = await untyped(h.writer).request('get', '/conversations', {
      headers: { Origin: 'http://app.example.test' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.example.test');
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});

describe('CORS for one origin', () => {
  const ORIGIN = 'https://app.example.test';
  let cors: Harness;
  beforeAll(async () => {
    cors = await startServer({ env: { CASI_CORS_ORIGIN: ORIGIN } });
  });
  afterAll(async () => {
    await cors.close();
  });

  it('allows that origin only, and answers its preflight from the route table', async () => {
    const allowed = await untyped(cors.writer).request('get', '/conversations', { headers: { Origin: ORIGIN } });
    expect(allowed.response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await untyped(cors.writer).request('get', '/conversations', {
      headers: { Origin: 'https://evil.example.test' },
    });
    expect(other.response.status).toBe(200);
    expect(other.response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await untyped(cors.client()).request('options', '/conversations', {
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' },
      parseAs: 'text',
    });
    expect(preflight.response.status).toBe(204);
    expect(preflight.response.headers.get('access-control-allow-methods')).toBe('GET, POST');
  });
});

describe('rate limit', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startServer({ env: { CASI_RATE_LIMIT: '2' } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 rate_limited with Retry-After past the limit, per key, until time passes', async () => {
    await limited.writer.conversations.list().firstPage();
    await limited.writer.conversations.list().firstPage();
    const error = await rejection(limited.writer.conversations.list().firstPage(), RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', transient: true });
    expect(error.headers.get('retry-after')).toBe('1');
    expect((await limited.reader.conversations.list().firstPage()).data).toEqual([]);
    await limited.advance(1000);
    expect((await limited.writer.conversations.list().firstPage()).data).toEqual([]);
  });
});

describe('internal errors', () => {
  const SECRET = 'postgres://admin:hunter2@db.internal';
  let broken: Harness;
  beforeAll(async () => {
    const store = createMemoryStore();
    const conversations = Object.create(store.conversations) as typeof store.conversations;
    conversations.list = async () => {
      throw new Error(`connection to ${SECRET} refused`);
    };
    broken = await startServer({ app: { service: { store: { ...store, conversations } } } });
  });
  afterAll(async () => {
    await broken.close();
  });

  it('answers 500 internal_error without the cause, and logs the cause', async () => {
    const error = await rejection(broken.writer.conversations.list().firstPage(), InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', transient: true });
    expect(JSON.stringify({ message: error.message, data: error.data })).not.toContain('hunter2');
    expect(broken.errorLogs.join('\n')).toContain(SECRET);
  });
});
