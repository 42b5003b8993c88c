/**
 * `GET /conversations/{conversation_id}/session` (WebSocket): every event as one JSON text frame, each incoming
 * frame to the service in order, and the `server.error` it may produce back to this socket only. The socket stays
 * open after `conversation.ended` (frames are then answered with `conversation_ended` errors). A session opened
 * with a conversation token is closed (1008, `token_expired: …`) when the token is refreshed away or expires.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Handlers, SessionSocket } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import { EventsDroppedError } from '../bus/types.js';
import type { ReferenceService, Session } from '../service.js';
import type { PendingSessions } from './pending-sessions.js';
import { SessionOutbox } from './session-outbox.js';

/** Frames received but not yet handled; a client that runs further ahead is closed with 1008. */
export const MAX_PENDING_FRAMES = 64;

/** The session handler; `pending` holds the sessions opened during the handshake. */
export function sessionHandler(
  service: Pick<ReferenceService, 'bus' | 'holdCredentials'>,
  pending: PendingSessions,
): Handlers<Principal>['openConversationSession'] {
  return async (req, socket) => {
    const session = pending.take(req.raw);
    if (session === undefined) throw new Error('The session was not opened during the handshake.');
    const credentials = service.holdCredentials(req.auth);
    socket.onClose(() => {
      credentials.release();
      session.events.close();
    });
    credentials.signal.addEventListener(
      'abort',
      () => socket.close(TOKEN_ENDED_CLOSE_CODE, closeReason(credentials.signal)),
      {
        once: true,
      },
    );
    const conversationId = req.params.conversation_id;
    // Events dropped since (a bounded history) are not ahead of an error any more.
    const readLog = (afterId: string | undefined) =>
      service.bus.read(conversationId, afterId).catch((error: unknown) => {
        if (error instanceof EventsDroppedError) return [];
        throw error;
      });
    const outbox = new SessionOutbox(socket, session.events, readLog, req.query.last_event_id);
    receiveFrames(socket, session, outbox, req.log);
    await outbox.pump();
    // It fell behind what a bounded history keeps: resuming from its last event is 410 `events_dropped`.
    if (session.events.lost) socket.close(TOKEN_ENDED_CLOSE_CODE, 'events_dropped: the next events are no longer kept');
  };
}

/**
 * The close code of a session whose conversation token was refreshed away or expired, or that fell behind the
 * events kept (policy violation); the reason says which.
 */
export const TOKEN_ENDED_CLOSE_CODE = 1008;

/** `token_expired: <message>`, from the abort reason of a token hold. */
function closeReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? `token_expired: ${reason.message}` : 'token_expired';
}

/** Hands each frame to the session, one at a time and in order, and queues the `server.error` it returns. */
function receiveFrames(socket: SessionSocket, session: Session, outbox: SessionOutbox, log: FastifyBaseLogger): void {
  let pending = 0;
  let chain = Promise.resolve();
  socket.onMessage((text, binary) => {
    if (socket.closed) return;
    if (pending >= MAX_PENDING_FRAMES) {
      socket.close(1008, `more than ${MAX_PENDING_FRAMES} frames awaiting an answer`);
      return;
    }
    pending++;
    chain = chain
      .then(async () => {
        const error = await session.handleFrame(text, binary);
        if (error !== null) await outbox.sendError(error);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'WebSocket frame failed');
        socket.close(1011, 'internal error');
      })
      .finally(() => {
        pending--;
      });
  });
}
