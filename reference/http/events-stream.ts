/**
 * `GET /conversations/{conversation_id}/events` (SSE): 204 when an ended conversation has nothing left after
 * `Last-Event-ID`; otherwise `retry: 1000`, then every event as `id: <event id>` / `data: <JSON>`, each write
 * awaited (backpressure), until `conversation.ended` (or retention purges the log, or the conversation token
 * that opened the stream is refreshed away or expires), then the response ends.
 *
 * Writes follow the socket: the events ready when a write starts (those already in the log, and those logged in the
 * same event-loop turn) go out together, up to `SSE_BATCH_LENGTH` characters per write, and the next write waits
 * only while the socket's buffer is full (backpressure). A lone event goes out at once.
 */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import type { ReferenceService } from '../service.js';
import { callService } from './errors.js';

/** The reconnection delay announced to clients, in milliseconds. */
export const SSE_RETRY_MS = 1000;

/**
 * Ready events are gathered into one write until it holds this many characters: few writes for a long history,
 * while what a subscriber that does not read costs in server buffers stays about one batch above the socket's.
 */
export const SSE_BATCH_LENGTH = 64 * 1024;

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
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        stream.queueJson(next.value, { id: next.value.id });
        while (stream.queuedLength < SSE_BATCH_LENGTH) {
          const event = events.poll();
          if (event === undefined) break;
          stream.queueJson(event, { id: event.id });
        }
        // Resolves at once while the socket takes the bytes; waits for it to drain otherwise.
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
