/**
 * Load: 200 concurrent SSE subscribers and 50 WebSocket sessions on one reference server, over 10 live chats
 * driven at once for a bounded number of messages. Every subscriber and session gets exactly the conversation's
 * history (zero lost events) and no request answers a 5xx.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, createFixtures, type Fixtures } from '../../conformance/fixtures.js';
import type { Target } from '../../conformance/target.js';
import type { Client } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { driveChat, startChat } from './chat-driver.js';
import { startTestReference } from './test-reference.js';

const CONVERSATIONS = 10;
const SSE_PER_CONVERSATION = 20;
/** Observers per conversation; with each conversation's driver that makes 5 sessions per conversation. */
const WS_OBSERVERS_PER_CONVERSATION = 4;
const MESSAGES = 8;

let target: Target;
let fixtures: Fixtures;
const statuses: number[] = [];
beforeAll(async () => {
  target = await startTestReference();
  target.httpServer?.on('request', (_request, response) => {
    response.on('finish', () => statuses.push(response.statusCode));
  });
  fixtures = await createFixtures(clientFor(target.baseUrl, target.keys.write));
});
afterAll(async () => {
  await target.close();
});

/** Reads a stream to its end; resolves once its first event arrived (so the load is concurrent) via `started`. */
function subscribe(source: AsyncIterable<ServerEvent>, started: () => void): Promise<ServerEvent[]> {
  return (async () => {
    const events: ServerEvent[] = [];
    for await (const event of source) {
      if (events.length === 0) started();
      events.push(event);
    }
    return events;
  })();
}

it(`${CONVERSATIONS * SSE_PER_CONVERSATION} SSE subscribers and ${CONVERSATIONS * (WS_OBSERVERS_PER_CONVERSATION + 1)} sessions lose nothing`, async () => {
  const client: Client = clientFor(target.baseUrl, target.keys.write);
  const ids = await Promise.all(Array.from({ length: CONVERSATIONS }, () => startChat(client, fixtures.agent.id)));
  let open = 0;
  const started = () => {
    open++;
  };
  const readers = ids.map((id) => {
    const sse = Array.from({ length: SSE_PER_CONVERSATION }, () => subscribe(client.conversations.events(id), started));
    const sessions = Array.from({ length: WS_OBSERVERS_PER_CONVERSATION }, () => {
      const session = client.conversations.session(id);
      return subscribe(session, started).finally(() => session.close());
    });
    return [...sse, ...sessions];
  });
  const expectedOpen = CONVERSATIONS * (SSE_PER_CONVERSATION + WS_OBSERVERS_PER_CONVERSATION);
  for (let waited = 0; open < expectedOpen && waited < 30_000; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  expect(open).toBe(expectedOpen);
  const histories = await Promise.all(
    ids.map((id) => driveChat(client, id, { minEvents: 10_000, words: 30, maxMessages: MESSAGES, pauseMs: 20 })),
  );
  for (const [i, history] of histories.entries()) {
    const want = history.map((e) => e.id);
    const got = await Promise.all(readers[i] ?? []);
    for (const events of got) expect(events.map((e) => e.id)).toEqual(want);
  }
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(CONVERSATIONS * SSE_PER_CONVERSATION);
  expect(target.backgroundErrors).toEqual([]);
}, 90_000);
