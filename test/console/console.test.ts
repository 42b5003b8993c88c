/**
 * The console in Debian Chromium (playwright-core) against a real reference server: start a chat, see the reply
 * stream in and the event list grow, tool calls, custom fields and context updates; follow a phone call over SSE.
 * No request from the page carries an Authorization header or the API key. Screenshots go to `test-artifacts/`.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../generated/src/client.gen.js';
import { type App, createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { CONSOLE_AGENT } from '../../reference/console/agent.js';
import { launchChromium } from '../browser/chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const API_KEY = 'sk_console_browser_test';
/** Longest wait for anything the page shows. */
const WAIT = { timeout: 15_000 };

/** Everything the page sent: each request's URL, headers and body, and each WebSocket's URL. */
interface Traffic {
  readonly requests: { url: string; headers: Record<string, string>; body: string }[];
  readonly sockets: string[];
  readonly errors: string[];
}

describe('the console in Chromium', () => {
  let server: App;
  let url = '';
  let client: Client;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const backgroundErrors: unknown[] = [];

  beforeAll(async () => {
    server = createApp({
      config: loadConfig({ CASI_API_KEYS: API_KEY }).config,
      validateResponses: true,
      service: { onError: (error) => void backgroundErrors.push(error) },
    });
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    client = createClient({ baseUrl: url, apiKey: API_KEY, maxRetries: 0 });
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openConsole(): Promise<{ tab: Page; traffic: Traffic }> {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1400, height: 860 });
    const traffic: Traffic = { requests: [], sockets: [], errors: [] };
    tab.on('request', (request) =>
      traffic.requests.push({ url: request.url(), headers: request.headers(), body: request.postData() ?? '' }),
    );
    tab.on('websocket', (socket) => traffic.sockets.push(socket.url()));
    tab.on('pageerror', (error) => traffic.errors.push(error.message));
    await tab.goto(`${url}/console`);
    await tab.waitForSelector('body[data-ready="true"]', WAIT);
    return { tab, traffic };
  }

  /** No request or socket of the page carries credentials other than a conversation token. */
  function expectNoApiKey(traffic: Traffic): void {
    expect(traffic.requests.length).toBeGreaterThan(0);
    for (const request of traffic.requests) {
      expect(request.headers.authorization, request.url).toBeUndefined();
      expect(JSON.stringify(request), request.url).not.toContain(API_KEY);
    }
    for (const socket of traffic.sockets) expect(socket).not.toContain(API_KEY);
    expect(traffic.errors).toEqual([]);
  }

  async function send(tab: Page, text: string): Promise<void> {
    await tab.fill('#message', text);
    await tab.press('#message', 'Enter');
  }

  it('chats in a new chat_realtime conversation and shows every kind of update', async () => {
    const { tab, traffic } = await openConsole();
    await expect(tab.locator('#list-empty').isVisible()).resolves.toBe(true);

    await tab.click('#new-chat');
    await tab.waitForSelector('#view[data-transport="session"] #message', WAIT);
    const id = (await tab.locator('#view').getAttribute('data-conversation-id')) ?? '';
    expect(id).toMatch(/^conv_/);
    await tab.waitForSelector('#connection[data-state="live"]', WAIT);
    await tab.waitForSelector(`#conversations li[data-conversation-id="${id}"][data-own="true"]`, WAIT);
    await tab.waitForSelector('#events li[data-type="conversation.setup"]', WAIT);
    const before = await tab.locator('#events li').count();

    await tab.fill('#message', 'Hello from the console');
    await tab.click('#send');
    const reply = tab.locator('.msg.agent[data-complete="true"]').first();
    await reply.waitFor(WAIT);
    expect(await reply.textContent()).toContain('You said: Hello from the console');
    await tab.waitForSelector('#events li[data-type="agent.message.completed"]', WAIT);
    const types = await tab
      .locator('#events li')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-type')));
    expect(types.length).toBeGreaterThan(before);
    expect(types.slice(0, 3)).toEqual(['conversation.setup', 'conversation.started', 'user.message.received']);
    expect(types).toContain('agent.message.delta');
    expect(await tab.locator('#event-count').textContent()).toBe(String(types.length));

    await send(tab, '/tool order_lookup {"order": 7}');
    const call = tab.locator('.tool-call[data-state="returned"]');
    await call.waitFor(WAIT);
    expect(await call.textContent()).toContain('order_lookup({"order":7})');
    expect(await call.textContent()).toContain('"echo":{"order":7}');

    await send(tab, '/field plan gold');
    await tab.locator('.note.custom-field', { hasText: 'plan = "gold"' }).waitFor(WAIT);

    await client.conversations.injectContext(id, { data: { tier: 'vip' } });
    await tab.locator('.note.context', { hasText: 'vip' }).waitFor(WAIT);

    await send(tab, 'x'.repeat(4097));
    await tab.locator('.note.error', { hasText: 'Not sent' }).waitFor(WAIT);

    await tab.waitForSelector(`#conversations li[data-conversation-id="${id}"][data-status="in-progress"]`, WAIT);
    await tab.screenshot({ path: join(ARTIFACTS, 'console.png') });

    await tab.click('#end');
    await tab.locator('.note.ended', { hasText: 'by customer' }).waitFor(WAIT);
    expect(await tab.locator('#message').isDisabled()).toBe(true);
    await tab.waitForSelector(`#conversations li[data-conversation-id="${id}"][data-status="completed"]`, WAIT);

    expectNoApiKey(traffic);
    expect(traffic.sockets.length).toBeGreaterThan(0);
    for (const socket of traffic.sockets) expect(socket).toContain('token=ct_');
    await tab.close();
  }, 90_000);

  it('follows a phone call created through the API over its SSE stream, with a new token', async () => {
    const agent = await client.conversationalAgents.create({ ...CONSOLE_AGENT, name: 'Phone agent' });
    const call = await client.conversations.create({
      agent_id: agent.id,
      channel: { type: 'phone', callee_no: '+14155550123' },
    });
    const { tab, traffic } = await openConsole();
    const item = tab.locator(`#conversations li[data-conversation-id="${call.id}"][data-own="false"]`);
    await item.waitFor(WAIT);
    await item.locator('button').click();
    await tab.waitForSelector(`#view[data-conversation-id="${call.id}"][data-transport="sse"]`, WAIT);
    await tab.locator('.msg.agent[data-complete="true"]', { hasText: 'How can I help you today?' }).waitFor(WAIT);
    await tab.locator('.note.ended').waitFor(WAIT);
    await tab.waitForSelector('#connection[data-state="done"]', WAIT);
    await tab.waitForSelector('#view[data-status="completed"]', WAIT);
    expect(await tab.locator('#message').count()).toBe(0);
    await tab.screenshot({ path: join(ARTIFACTS, 'console-phone.png') });

    const streams = traffic.requests.filter((r) => r.url.startsWith(`${url}/conversations/${call.id}/events`));
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) expect(stream.url).toContain('token=ct_');
    expect(streams.some((s) => s.url.includes(encodeURIComponent(call.channel.token)))).toBe(false);
    expectNoApiKey(traffic);
    await tab.close();
  }, 90_000);

  it('had no background errors', () => expect(backgroundErrors).toEqual([]));
});
