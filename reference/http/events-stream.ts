/**
 * `GET /conversations/{conversation_id}/events` (SSE): 204 when an ended conversation has nothing left after
 * `Last-Event-ID`; otherwise `retry: 1000`, then every event as `id: <event id>` / `data: <JSON>`, each write
 * awaited (backpressure), until `conversation.ended` (or retention purges the log, or the conversation token
 * that opened the stream is refreshed away or expires), then the response ends.
 *
 * Events go out together, up to `SSE_BATCH_LENGTH` characters per write: the events already in the log, those
 * logged in the same event-loop turn (the memory bus wakes its readers once per turn), and, while events come
 * faster than one per `SSE_WRITE_INTERVAL_MS`, those logged within that interval of the subscriber's previous
 * write. An event logged after a quieter spell is written at the end of its turn, without waiting.
 */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import type { ReferenceService } from '../service.js';
import { callService } from './errors.js';

/** The reconnection delay announced to clients, in milliseconds. */
export const SSE_RETRY_MS = 1000;

/**
 * Pending events are gathered into one write until it holds this many characters (the socket's 16 KiB high-water
 * mark), which keeps what a subscriber that does not read costs in server buffers under 64 KiB.
 */
export const SSE_BATCH_LENGTH = 16 * 1024;

/**
 * The shortest time between two writes to one subscriber, in milliseconds: an event logged sooner after the
 * previous write waits for the rest of the interval, and goes out with whatever the log gathers meanwhile. Under a
 * steady flow of events this caps the writes to each subscriber (system calls in the server, chunks to read in the
 * client) at one per interval, for at most one interval of added latency.
 */
export const SSE_WRITE_INTERVAL_MS = 20;

/** Pending wake-ups by due time (whole milliseconds of `performance.now()`): streams due together share a timer. */
const wakeUps = new Map<number, Promise<void>>();

/** Resolves at `due`, a `performance.now()` time, rounded up to the millisecond. */
function sleepUntil(due: number): Promise<void> {
  const at = Math.ceil(due);
  let wakeUp = wakeUps.get(at);
  if (wakeUp === undefined) {
    wakeUp = new Promise((resolve) => {
      const done = () => {
        wakeUps.delete(at);
        resolve();
      };
      setTimeout(done, Math.max(1, at - performance.now())).unref();
    });
    wakeUps.set(at, wakeUp);
  }
  return wakeUp;
}

/** The SSE handler. */
export function eventStreamHandler(
  service: Pick<ReferenceService, 'openEventStream' | 'holdCredentials'>,
): Handlers<Principal>['streamConversationEvents'] {
  return async (req, stream) => {
    const { conversation_id: conversationId } = req.params;
    const lastEventId = req.headers['last-event-id'];
    const opening = await callService(() => service.openEventStream(req.auth, conversationId, lastEventId));
    if (opening.status === 204) return { status: 204 };
    const { events } = opening;
    stream.onClose(() => events.close());
    // A stream opened with a conversation token ends when the token is refreshed away or expires.
    const credentials = service.holdCredentials(req.auth);
    credentials.signal.addEventListener('abort', () => events.close(), { once: true });
    stream.open({ retry: SSE_RETRY_MS });
    let lastWrite = Number.NEGATIVE_INFINITY;
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        const due = lastWrite + SSE_WRITE_INTERVAL_MS;
        // A loop: Node counts a timer from the loop time of its turn, so it may fire a little early.
        while (performance.now() < due) await sleepUntil(due);
        stream.queueJson(next.value, { id: next.value.id });
        while (stream.queuedLength < SSE_BATCH_LENGTH) {
          const event = events.poll();
          if (event === undefined) break;
          stream.queueJson(event, { id: event.id });
        }
        lastWrite = performance.now();
        if (!(await stream.flush())) break;
      }
    } finally {
      credentials.release();
      events.close();
      stream.close();
    }
    return undefined;
  };
}
