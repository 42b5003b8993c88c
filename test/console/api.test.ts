/**
 * The console's server side over real HTTP: the page and its script, and `/console/api/…` — listing, creating a
 * chat with the console agent, opening (with a token refresh for conversations it did not create), the guard.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../generated/src/client.gen.js';
import { validateCreateConversationalAgentRequest } from '../../generated/src/validators.gen.js';
import { type App, createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { CONSOLE_AGENT } from '../../reference/console/agent.js';
import type { ConsoleConversationList, ConsoleOpened } from '../../reference/console/types.js';

const API_KEY = 'sk_console_api';

describe('the console routes', () => {
  let server: App;
  let url = '';
  let client: Client;
  const backgroundErrors: unknown[] = [];

  const api = <T>(method: string, path: string, headers: Record<string, string> = {}) =>
    send<T>(new URL(`/console/api/${path}`, url), method, headers);

  beforeAll(async () => {
    server = createApp({
      config: loadConfig({ CASI_API_KEYS: `${API_KEY}:org_console` }).config,
      validateResponses: true,
      service: { onError: (error) => void backgroundErrors.push(error) },
    });
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    client = createClient({ baseUrl: url, apiKey: API_KEY, maxRetries: 0 });
  });

  afterAll(async () => server?.close());

  it('the console agent is a valid agent body', () => {
    expect(
      validateCreateConversationalAgentRequest(CONSOLE_AGENT),
      JSON.stringify(validateCreateConversationalAgentRequest.errors),
    ).toBe(true);
  });

  it('serves the page with a strict CSP, and a script that holds no key', async () => {
    const page = await fetch(`${url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('src="/console/console.js"');
    const script = await fetch(`${url}/console/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const code = await script.text();
    expect(code.length).toBeGreaterThan(1000);
    expect(code).not.toContain(API_KEY);
    const css = await fetch(`${url}/console/console.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
  }, 60_000);

  it('lists nothing at first, then the chat it creates, with its token', async () => {
    const empty = await api<ConsoleConversationList>('GET', 'conversations');
    expect(empty.status).toBe(200);
    expect(empty.headers['cache-control']).toBe('no-store');
    expect(empty.body).toEqual({ org: 'org_console', data: [] });

    const created = await api<ConsoleOpened>('POST', 'conversations');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'queued', channel_type: 'chat_realtime', own: true });
    expect(created.body.token).toMatch(/^ct_/);

    const list = await api<ConsoleConversationList>('GET', 'conversations');
    expect(list.body.data).toEqual([
      {
        id: created.body.id,
        status: 'queued',
        channel_type: 'chat_realtime',
        created_at: expect.any(String),
        own: true,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);

    // Opening it again gives the same, still valid token; the agent was created once, in the console's org.
    const reopened = await api<ConsoleOpened>('POST', `conversations/${created.body.id}/open`);
    expect(reopened.body.token).toBe(created.body.token);
    await api('POST', 'conversations');
    const conversation = await client.conversations.retrieve(created.body.id);
    const agents = new Set<string>();
    for await (const item of client.conversations.list()) agents.add(item.agent_id.split('@')[0] ?? '');
    expect(agents).toEqual(new Set([conversation.agent_id.split('@')[0]]));
  });

  it('opening a conversation it did not create issues a new token, which replaces the old one', async () => {
    const { agentId } = await agent(client);
    const created = await client.conversations.create({ agent_id: agentId, channel: { type: 'chat_async' } });
    const listed = await api<ConsoleConversationList>('GET', 'conversations');
    expect(listed.body.data.find((c) => c.id === created.id)?.own).toBe(false);

    const opened = await api<ConsoleOpened>('POST', `conversations/${created.id}/open`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ id: created.id, channel_type: 'chat_async', own: true });
    expect(opened.body.token).not.toBe(created.channel.token);
    const old = await fetch(`${url}/conversations/${created.id}/events?token=${created.channel.token}`);
    expect(old.status).toBe(401);
    await old.body?.cancel();
  });

  it('answers 404 for a conversation that does not exist', async () => {
    const answer = await api<{ code: string }>('POST', 'conversations/conv_missing/open');
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('not_found');
  });

  it.each([
    ['another origin', { origin: 'http://evil.example' }],
    ['a cross-site request', { 'sec-fetch-site': 'cross-site' }],
    ['a name that is not loopback (DNS rebinding)', { host: 'evil.example' }],
  ])('refuses %s with 403', async (_name, headers) => {
    for (const [method, path] of [
      ['GET', 'conversations'],
      ['POST', 'conversations'],
    ] as const) {
      const answer = await api<{ code: string; message: string }>(method, path, headers);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('forbidden');
    }
  });

  it('had no background errors', () => expect(backgroundErrors).toEqual([]));
});

describe('the console of a server listening beyond loopback', () => {
  const keys = { writer: 'sk_console_w', reader: 'sk_console_r', other: 'sk_other_w' };
  let server: App;
  let url = '';

  beforeAll(async () => {
    const apiKeys = `${keys.writer}:org_console,${keys.reader}:org_console:read,${keys.other}:org_other`;
    // HOST says beyond loopback; the test still reaches it on 127.0.0.1 (as another process on the machine would).
    server = createApp({ config: loadConfig({ CASI_API_KEYS: apiKeys, HOST: '0.0.0.0' }).config });
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => server?.close());

  const api = <T>(method: string, path: string, key?: string, headers: Record<string, string> = {}) =>
    send<T>(new URL(`/console/api/${path}`, url), method, {
      ...headers,
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    });

  it('refuses its API without a key (401) and with a key of another organisation (403)', async () => {
    for (const method of ['GET', 'POST']) {
      const none = await api<{ code: string }>(method, 'conversations');
      expect([none.status, none.body.code]).toEqual([401, 'unauthorized']);
      const other = await api<{ code: string; message: string }>(method, 'conversations', keys.other);
      expect([other.status, other.body.code]).toEqual([403, 'forbidden']);
      expect(other.body.message).toContain('org_console');
    }
  });

  it('a read key of its organisation lists, a write key creates; the origin guard still holds', async () => {
    const listed = await api<ConsoleConversationList>('GET', 'conversations', keys.reader);
    expect(listed.status).toBe(200);
    expect(listed.body.org).toBe('org_console');
    expect((await api<{ code: string }>('POST', 'conversations', keys.reader)).status).toBe(403);
    const created = await api<ConsoleOpened>('POST', 'conversations', keys.writer);
    expect(created.status).toBe(200);
    expect(created.body.token).toMatch(/^ct_/);
    const crossSite = await api('GET', 'conversations', keys.writer, { origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
  });
});

/** An agent of the test's own, created with the API key. */
async function agent(client: Client): Promise<{ agentId: string }> {
  const created = await client.conversationalAgents.create({ ...CONSOLE_AGENT, name: 'Test agent' });
  return { agentId: created.id };
}

/** A request through `node:http`, which (unlike `fetch`) sends the `Host` header it is given. */
function send<T>(url: URL, method: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: T }>((done, fail) => {
    const req = request(url, { method, headers, timeout: 5_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as T }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail).end();
  });
}
