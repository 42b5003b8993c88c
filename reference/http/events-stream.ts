/**
 * `GET /conversations/{conversation_id}/events` (SSE): 204 when an ended conversation has nothing left after
 * `Last-Event-ID`; otherwise `retry: 1000`, then every event as `id: <event id>` / `data: <JSON>`, each write
 * awaited (backpressure), until `conversation.ended` (or retention purges the log), then the response ends.
 */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import type { ReferenceService } from '../service.js';
import { callService } from './errors.js';

/** The reconnection delay announced to clients, in milliseconds. */
export const SSE_RETRY_MS = 1000;

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
        if (next.done || !(await stream.sendJson(next.value, { id: next.value.id }))) break;
      }
    } finally {
      events.close();
      stream.close();
    }
    return undefined;
  };
}
