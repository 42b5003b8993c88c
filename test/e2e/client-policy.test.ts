/**
 * The generated client against the reference server, on what the audit found: a POST that timed out is not sent
 * again (behind a proxy that delays answers), a session closes itself after `conversation.ended`, streams and sessions
 * take a per-call `apiKey`, `raw` calls need no `Service-Version`, and the error classes and `ValidationError` come
 * from the client entry (`CasiApiError` usable as a type).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  ApiTimeoutError,
  AuthenticationError,
  CasiApiError,
  CasiError,
  createClient,
  MethodNotAllowedError,
  ValidationError,
} from '../../generated/src/client.gen.js';
import type { ClientEvent, ErrorCode } from '../../generated/src/types.gen.js';
import { readUntilType, type ScenarioAgents, startConversation, startScenario, typesOf, WAIT_MS } from './fixtures.js';
import { type Harness, KEYS } from './harness.js';

let h: Harness;
let agents: ScenarioAgents;
beforeAll(async () => ({ h, agents } = await startScenario()));
afterAll(() => h.close());

/** A proxy to `target` that passes each request on at once and holds the answer back for `delayMs`. */
async function startSlowProxy(target: string, delayMs: number): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }, delayMs);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function countConversations(): Promise<number> {
  let count = 0;
  for await (const _ of h.writer.conversations.list()) count++;
  return count;
}

describe('retries of a POST', () => {
  it('creates one conversation when the create times out behind a slow proxy', async () => {
    const proxy = await startSlowProxy(h.baseUrl, 400);
    try {
      const before = await countConversations();
      const slow = createClient({
        baseUrl: proxy.url,
        apiKey: KEYS.writer,
        timeoutMs: 250,
        retry: { baseDelayMs: 50, maxDelayMs: 100 },
      });
      const create = slow.conversations.create({ agent_id: agents.agentId, channel: { type: 'chat_async' } });
      await expect(create).rejects.toBeInstanceOf(ApiTimeoutError);
      // Time enough for the two retries the old policy made (timeout + backoff, twice) to reach the server.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await countConversations()) - before).toBe(1);
    } finally {
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('still retries a GET that timed out', async () => {
    const proxy = await startSlowProxy(h.baseUrl, 400);
    try {
      const slow = createClient({ baseUrl: proxy.url, apiKey: KEYS.writer, timeoutMs: 250, maxRetries: 1 });
      let requests = 0;
      proxy.server.on('request', () => requests++);
      await expect(slow.conversationalAgents.retrieve(agents.agentId)).rejects.toBeInstanceOf(ApiTimeoutError);
      expect(requests).toBe(2);
    } finally {
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});

describe('the session after conversation.ended', () => {
  it('closes its socket, settles closed and goes to state closed', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const session = h.writer.conversations.session(created.id, { token: created.channel.token });
    try {
      await session.ready;
      await readUntilType(session, 'conversation.setup');
      session.send({ payload: { type: 'conversation.start' } });
      await readUntilType(session, 'conversation.started');
      session.send({ payload: { type: 'conversation.end' } });
      const end = await readUntilType(session, 'conversation.ended');
      expect(typesOf(end).at(-1)).toBe('conversation.ended');
      const settled = await Promise.race([
        session.closed.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), WAIT_MS)),
      ]);
      expect(settled).toBe('closed');
      expect(session.state).toBe('closed');
    } finally {
      session.close();
    }
  });
});

describe('per-call apiKey', () => {
  it('authenticates the event stream and the session of a client without a key', async () => {
    const keyless = h.client();
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const events = keyless.conversations.events(created.id, { apiKey: KEYS.writer });
    expect(typesOf(await readUntilType(events, 'conversation.setup'))).toEqual(['conversation.setup']);

    const session = keyless.conversations.session(created.id, { apiKey: KEYS.writer });
    try {
      await session.ready;
      expect(typesOf(await readUntilType(session, 'conversation.setup'))).toEqual(['conversation.setup']);
    } finally {
      session.close();
    }
    const refused = keyless.conversations.session(created.id);
    await expect(refused.ready).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('the client entry', () => {
  it('lets raw calls leave out the Service-Version header it sends anyway', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_async' });
    const { data, error, response } = await h.writer.raw.GET('/conversations/{conversation_id}', {
      params: { path: { conversation_id: created.id } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.id).toBe(created.id);
  });

  it('exports CasiApiError as a class and a type, the 405 class, and ValidationError as a CasiError', async () => {
    const failure: unknown = await h.writer.conversations.retrieve('conv_doesnotexist1').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CasiApiError);
    const typed: CasiApiError = failure as CasiApiError;
    expectTypeOf(typed.code).toEqualTypeOf<ErrorCode | (string & {})>();
    expect(typed.status).toBe(404);

    const wrongMethod = h.writer.core.request('delete' as 'get', '/conversations', {
      params: { header: { 'Service-Version': '2025-06-19' } },
    });
    await expect(wrongMethod).rejects.toBeInstanceOf(MethodNotAllowedError);

    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    const session = h.writer.conversations.session(created.id, { token: created.channel.token });
    try {
      await session.ready;
      const invalid = { payload: { type: 'user.message.send' } } as unknown as ClientEvent;
      let thrown: unknown;
      try {
        session.send(invalid);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect(thrown).toBeInstanceOf(CasiError);
    } finally {
      session.close();
    }
  });
});
