/**
 * One run of bench/event-memory.mjs: a reference server in this process (`createApp`, not listening; requests by
 * `app.inject`), `CASI_MAX_EVENTS*` from the environment. Runs chats in waves of `concurrent`, each started, given
 * `perConversation` context updates of `size` bytes and ended, until `events` updates were injected; prints the RSS
 * and heap after a full collection, the events the bus holds, and the time taken, as one JSON line.
 */
import { createApp } from '../reference/app.js';
import { loadConfig } from '../reference/config.js';

/** A minimal valid conversational agent configuration. */
const AGENT_CONFIG = {
  personas: [{ name: 'Ada', voice: { provider: 'service', id: 'Female 1' } }],
  voice: { boosted_keywords: [] },
  runtime: { model: 'provider_a/gpt-4o', prompt: { type: 'fixed', text: 'Help.' }, variables: [] },
  tool: { tools: [], transfers: [] },
  language: { default_language: 'English', supported_languages: ['English'] },
  channel: { is_voicemail_enabled: false },
};

const [events = 1_000_000, concurrent = 100, perConversation = 100, size = 500] = process.argv.slice(2).map(Number);
const KEY = 'sk_bench';
const { config } = loadConfig({ ...process.env, CASI_API_KEYS: `${KEY}:org_bench:write` });
const { app, service, close } = createApp({ config });
const headers = { authorization: `Bearer ${KEY}`, 'service-version': '2025-06-19', 'content-type': 'application/json' };

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
  if (answer.statusCode !== 200) throw new Error(`POST ${url}: ${answer.statusCode} ${answer.body}`);
  return answer.json();
}

/** One chat: created, started, `perConversation` context updates (the last ones may be fewer), ended. */
async function chat(agentId: unknown, count: number, filler: string): Promise<void> {
  const made = await post('/conversations', { agent_id: agentId, channel: { type: 'chat_async' } });
  const id = String(made.id);
  await service.handleClientFrame(id, '{"payload":{"type":"conversation.start"}}');
  for (let i = 0; i < count; i++) await post(`/conversations/${id}/context`, { data: { seq: String(i), filler } });
  await service.handleClientFrame(id, '{"payload":{"type":"conversation.end"}}');
}

const started = performance.now();
const agent = await post('/conversational_agents', { name: 'Bench', config: AGENT_CONFIG });
const filler = 'x'.repeat(size);
// Waves of `concurrent` chats at a time, each `perConversation` events long, until `events` were injected.
for (let sent = 0; sent < events; ) {
  const wave: Promise<void>[] = [];
  for (let i = 0; i < concurrent && sent < events; i++) {
    const count = Math.min(perConversation, events - sent);
    sent += count;
    wave.push(chat(agent.version_id, count, filler));
  }
  await Promise.all(wave);
}
const ms = performance.now() - started;
(globalThis as { gc?: () => void }).gc?.();
const memory = process.memoryUsage();
const bus = service.bus as { heldEvents?: number };
console.log(
  JSON.stringify({ rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20, held: bus.heldEvents ?? -1, ms }),
);
await close();
