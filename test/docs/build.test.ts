/**
 * `npm run docs` on the real specs, into a temporary folder: the three pages, every operationId and event type,
 * every example, inferred elements marked on both pages, and a REST page that needs no CDN.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs, DOCS_PAGES, type DocsResult } from '../../generator/docs/build.js';
import { clientSnippet, curlCommand } from '../../generator/docs/code-samples.js';
import { eventAnchor } from '../../generator/docs/events-page.js';
import { escapeHtml } from '../../generator/docs/html.js';
import { buildIr } from '../../generator/ir/build.js';
import type { Ir } from '../../generator/ir/model.js';
import { loadSpecs } from '../../generator/load/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SPEC = { openapi: join(ROOT, 'spec/openapi.yaml'), asyncapi: join(ROOT, 'spec/asyncapi.yaml') };

describe('the docs builder on the specs', () => {
  let out = '';
  let result: DocsResult;
  let ir: Ir;
  const page = (name: string) => readFileSync(join(out, name), 'utf8');

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'casi-docs-test-'));
    ir = buildIr(await loadSpecs(SPEC.openapi, SPEC.asyncapi));
    result = await buildDocs({ ...SPEC, out });
  }, 120_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the three pages', () => {
    expect(result.files).toEqual(Object.values(DOCS_PAGES).map((name) => join(out, name)));
    for (const name of Object.values(DOCS_PAGES)) expect(page(name)).toMatch(/^<!DOCTYPE html>/i);
    expect(result.operations).toBe(ir.operations.length);
    expect(result.events).toBe(ir.events.length);
  });

  it('the REST page holds every operationId and badges each inferred operation', () => {
    const rest = page(DOCS_PAGES.rest);
    for (const op of ir.operations) expect(rest, op.id).toContain(`"operationId":"${op.id}"`);
    const inferred = ir.operations.filter((op) => op.inferred).map((op) => op.id);
    expect(inferred.length).toBeGreaterThan(0);
    // The IR's operations, plus the webhook the OpenAPI document describes under `webhooks`.
    expect(result.inferredOperations).toEqual(expect.arrayContaining(inferred));
    expect(result.inferredOperations).toContain('receiveConversationSetup');
    const badges = rest.match(/"x-badges":\[\{"name":"Inferred","color":"orange"\}\]/g) ?? [];
    expect(badges.length).toBeGreaterThan(inferred.length);
    expect(rest).toContain('*Inferred (see DECISIONS.md):*');
  });

  it('the REST page gives every operation a curl command and a TypeScript call, as Redoc code samples', () => {
    const rest = page(DOCS_PAGES.rest);
    for (const op of ir.operations) {
      expect(rest, op.id).toContain(`{"lang":"curl","label":"curl","source":${inPage(curlCommand(ir, op))}}`);
      expect(rest, op.id).toContain(
        `{"lang":"TypeScript","label":"TypeScript","source":${inPage(clientSnippet(ir, op))}}`,
      );
    }
  });

  it('the REST samples of named operations fill the path, credential, Service-Version and body', () => {
    const rest = page(DOCS_PAGES.rest);
    const has = (text: string) => expect(rest).toContain(inPage(text).slice(1, -1));
    has(
      `curl 'http://127.0.0.1:4010/conversations/conv_9Xr4Tb2Kp' \\\n  -H "Authorization: Bearer $CASI_API_KEY" \\\n  -H 'Service-Version: 2025-06-19'`,
    );
    has("const result = await client.conversations.retrieve('conv_9Xr4Tb2Kp');");
    has("curl -X POST 'http://127.0.0.1:4010/conversations' \\\n");
    has(`-H 'Content-Type: application/json' \\\n  -d '{\n  "agent_id": "ca_7Qk2Lm9Xa",`);
    has("await client.conversations.create({\n  agent_id: 'ca_7Qk2Lm9Xa',\n  channel: {\n    type: 'phone',");
    has("curl -N -i 'http://127.0.0.1:4010/conversations/conv_9Xr4Tb2Kp/events'");
    has("for await (const event of client.conversations.events('conv_9Xr4Tb2Kp', { token: 'conversation-token' })) {");
    has("-H 'Upgrade: websocket'");
    has("const session = client.conversations.session('conv_9Xr4Tb2Kp', { token: 'conversation-token' });");
    has('for await (const item of client.conversations.list()) {');
    has("curl -X DELETE 'http://127.0.0.1:4010/procedural_agents/pa_3Hf8QwZ1'");
  });

  it('the REST page embeds Redoc instead of loading it from a CDN', () => {
    const rest = page(DOCS_PAGES.rest);
    expect(rest).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(rest).not.toMatch(/<link[^>]+href=["']https?:\/\/cdn/);
    expect(rest).not.toContain('cdn.redocly.com/redoc/v');
  });

  it('the events page documents every event type with every example', () => {
    const events = page(DOCS_PAGES.events);
    expect(ir.events.length).toBeGreaterThan(0);
    for (const event of ir.events) {
      expect(events, event.type).toContain(`id="${eventAnchor(event.type)}" data-event-type="${event.type}"`);
      for (const example of event.examples) expect(events).toContain(escapeHtml(JSON.stringify(example, null, 2)));
    }
    const experimental = ir.events.filter((e) => e.experimental);
    expect(experimental.length).toBeGreaterThan(0);
    expect(events.match(/<span class="badge experimental" data-experimental/g)).toHaveLength(experimental.length + 1);
    expect(events).toContain('<strong>Ordering.</strong>');
    expect(events).not.toContain('<script');
  });

  it('the events page shows how to receive a server event and how to send a client event', () => {
    const events = page(DOCS_PAGES.events);
    const card = (type: string) => {
      const start = events.indexOf(`data-event-type="${type}"`);
      return events.slice(start, events.indexOf('</article>', start));
    };
    const delta = card('agent.message.delta');
    expect(delta).toContain(escapeHtml("session.on('agent.message.delta', (event) => {"));
    expect(delta).toContain(
      escapeHtml("if (event.payload.type === 'agent.message.delta') console.log(event.payload);"),
    );
    expect(delta).toContain(
      escapeHtml("client.conversations.session('conv_9Xr4Tb2Kp', { token: 'conversation-token' })"),
    );
    const send = card('user.message.send');
    expect(send).toContain(
      escapeHtml(
        "session.send({\n  id: 'cev_15',\n  payload: {\n    type: 'user.message.send',\n    text: 'Where is my order?',",
      ),
    );
    expect(send).not.toContain('session.on(');
    for (const event of ir.events) expect(card(event.type), event.type).toContain('<pre data-sample="typescript">');
  });

  it('the events page marks the inferred transports', () => {
    const events = page(DOCS_PAGES.events);
    for (const title of ['Real-time session (WebSocket)', 'conversation.setup webhook']) {
      const start = events.indexOf(`<h3>${escapeHtml(title)}`);
      expect(start, title).toBeGreaterThan(0);
      expect(events.slice(start, events.indexOf('</h3>', start))).toContain('data-inferred');
    }
  });

  it('the home page links both references', () => {
    const index = page(DOCS_PAGES.index);
    expect(index).toContain('href="rest.html"');
    expect(index).toContain('href="events.html"');
  });
});

/** `text` as the REST page embeds it in Redoc's state: a JSON string with `<` escaped. */
function inPage(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}
