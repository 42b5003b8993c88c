/**
 * A slow consumer: one SSE subscriber reads nothing while a chat pushes ~6 MB of events (more than the kernel's
 * socket buffers hold). It must not block the other subscriber, which gets everything at once; the server must
 * buffer for it in user space at most one batch (`SSE_BATCH_LENGTH`, with the event that crosses it) above the
 * socket's own high-water mark (its writes wait for `drain`; the events wait in the log, where a subscriber is only
 * a position); and once it reads, it gets every event in order.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, createFixtures, type Fixtures } from '../../conformance/fixtures.js';
import type { Target } from '../../conformance/target.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { SSE_BATCH_LENGTH } from '../../reference/http/events-stream.js';
import { driveChat, startChat } from './chat-driver.js';
import { openPaused } from './sse-reader.js';
import { startTestReference } from './test-reference.js';

/** The largest event of the chat driven here (300 words), which may cross a batch's end. */
const EVENT_BOUND = 8 * 1024;
const MESSAGES = 300;

let target: Target;
let fixtures: Fixtures;
beforeAll(async () => {
  target = await startTestReference();
  fixtures = await createFixtures(clientFor(target.baseUrl, target.keys.write));
});
afterAll(async () => {
  await target.close();
});

it('a subscriber that does not read blocks no one and costs at most one batch above the socket buffer', async () => {
  const client = clientFor(target.baseUrl, target.keys.write);
  const id = await startChat(client, fixtures.agent.id);
  const sockets: Socket[] = [];
  const onConnection = (socket: Socket) => sockets.push(socket);
  target.httpServer?.on('connection', onConnection);
  const slow = await openPaused(`${target.baseUrl}/conversations/${id}/events`, target.keys.write);
  const serverSide = sockets.find((s) => s.remotePort === slow.response.socket.localPort);
  target.httpServer?.off('connection', onConnection);
  if (!serverSide) throw new Error('the slow subscriber has no server socket');
  let maxBuffered = 0;
  let backpressured = false;
  const watch = setInterval(() => {
    maxBuffered = Math.max(maxBuffered, serverSide.writableLength);
    backpressured ||= serverSide.writableNeedDrain;
  }, 2);
  try {
    const fast: ServerEvent[] = [];
    const fastDone = (async () => {
      for await (const event of client.conversations.events(id)) fast.push(event);
    })();
    const driven = await driveChat(client, id, { minEvents: 34 * MESSAGES, words: 300, maxMessages: MESSAGES });
    await fastDone;
    expect(fast.map((e) => e.id)).toEqual(driven.map((e) => e.id));
    expect(backpressured).toBe(true);
    expect(maxBuffered).toBeLessThanOrEqual(serverSide.writableHighWaterMark + SSE_BATCH_LENGTH + EVENT_BOUND);
    const late = (await slow.resume()) as ServerEvent[];
    expect(late.map((e) => e.id)).toEqual(driven.map((e) => e.id));
  } finally {
    clearInterval(watch);
    slow.close();
  }
}, 60_000);
