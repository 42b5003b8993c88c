/**
 * Faults on the event transports: a chat of at least 1,000 events while a proxy cuts the SSE stream, then the
 * WebSocket session, 100 times each at random byte offsets. The generated client's output must equal the server's
 * history: same events, same order, nothing lost, nothing repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createFixtures, type Fixtures } from '../../conformance/fixtures.js';
import type { Target } from '../../conformance/target.js';
import { createClient } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { driveChat, history, startChat } from './chat-driver.js';
import { type CuttingProxy, fastSseRetry, seededRandom, startCuttingProxy } from './cutting-proxy.js';
import { startTestReference } from './test-reference.js';

const CUTS = 100;
const MIN_EVENTS = 1000;
const seed = Number(process.env.CONFORMANCE_SEED ?? 20250619);
let target: Target;
let fixtures: Fixtures;

beforeAll(async () => {
  target = await startTestReference();
  fixtures = await createFixtures(clientFor(target.baseUrl, target.keys.write));
});
afterAll(async () => {
  await target.close();
});

/** Runs a chat directly while `consume` reads the same conversation through a cutting proxy. */
async function underCuts(
  rewrite: ((chunk: Buffer) => Buffer) | undefined,
  minBytes: number,
  maxBytes: number,
  consume: (proxied: ReturnType<typeof createClient>, conversationId: string) => Promise<ServerEvent[]>,
): Promise<{ seen: ServerEvent[]; truth: ServerEvent[]; proxy: CuttingProxy }> {
  const port = Number(new URL(target.baseUrl).port);
  const proxy = await startCuttingProxy({
    port,
    cuts: CUTS,
    minBytes,
    maxBytes,
    random: seededRandom(seed),
    ...(rewrite ? { rewrite } : {}),
  });
  try {
    const direct = clientFor(target.baseUrl, target.keys.write);
    const proxied = createClient({
      baseUrl: `http://127.0.0.1:${proxy.port}`,
      apiKey: target.keys.write,
      maxRetries: 0,
    });
    const conversationId = await startChat(direct, fixtures.agent.id);
    const consuming = consume(proxied, conversationId);
    // Slow enough that the consumer is cut while the conversation is live, not only while it catches up.
    await driveChat(direct, conversationId, { minEvents: MIN_EVENTS, words: 40, pauseMs: 15 });
    const seen = await consuming;
    return { seen, truth: await history(direct, conversationId), proxy };
  } finally {
    await proxy.close();
  }
}

function expectSameHistory(seen: readonly ServerEvent[], truth: readonly ServerEvent[]): void {
  expect(truth.length).toBeGreaterThanOrEqual(MIN_EVENTS);
  expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  expect(seen.map((e) => e.id)).toEqual(truth.map((e) => e.id));
  expect(seen).toEqual(truth);
}

describe('stream faults', () => {
  it(`SSE cut ${CUTS} times: conversations.events yields the server's history exactly`, async () => {
    const { seen, truth, proxy } = await underCuts(fastSseRetry, 150, 2500, async (client, id) => {
      const events: ServerEvent[] = [];
      for await (const event of client.conversations.events(id, { maxReconnects: 50, reconnectDelayMs: 5 }))
        events.push(event);
      return events;
    });
    expect(proxy.cutsDone).toBe(CUTS);
    expectSameHistory(seen, truth);
  }, 120_000);

  it(`WebSocket dropped ${CUTS} times: the session yields the server's history exactly`, async () => {
    const { seen, truth, proxy } = await underCuts(undefined, 300, 2500, async (client, id) => {
      const events: ServerEvent[] = [];
      const session = client.conversations.session(id, { maxReconnects: 50, reconnectDelayMs: 5 });
      try {
        for await (const event of session) events.push(event);
      } finally {
        session.close();
      }
      return events;
    });
    expect(proxy.cutsDone).toBe(CUTS);
    expectSameHistory(seen, truth);
  }, 120_000);
});
