/**
 * `GET /conversations/{conversation_id}/events` (SSE): 204 when an ended conversation has nothing left after
 * `Last-Event-ID`; otherwise `retry: 1000`, then every event as `id: <event id>` / `data: <JSON>`, each write
 * awaited (backpressure), until `conversation.ended` (or retention purges the log), then the response ends. The
 * events already in the log are written together, up to `SSE_BATCH_LENGTH` characters per write.
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

/** The SSE handler. */
export function eventStreamHandler(
  service: Pick<ReferenceService, 'openEventStream'>,
): Handlers<Principal>['streamConversationEvents'] {
  return async (req, stream) => {
    const { conversation_id: conversationId } = req.params;
    const lastEventId = req.headers['last-event-id'];
    const opening = await callService(() => service.openEventStream(req.auth, conversationId, lastEventId));
    if (opening.status === 204) return { status: 204 };
    const { events } = opening;
    stream.onClose(() => events.close());
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
        if (!(await stream.flush())) break;
      }
    } finally {
      events.close();
      stream.close();
    }
    return undefined;
  };
}
