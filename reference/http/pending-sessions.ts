/**
 * Sessions opened during the WebSocket handshake, before the upgrade: the domain's refusals (404 conversation or
 * retention over, 400 `unknown_event_id`, 403 token of another conversation) then answer the handshake as HTTP
 * errors, like on the SSE stream, instead of closing an already open socket.
 */
import type { IncomingMessage } from 'node:http';
import type { IncomingRequest, RouteDefinition } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import type { ReferenceService, Session } from '../service.js';
import { callService } from './errors.js';

/** The operation whose handshake opens a session. */
const SESSION_OPERATION = 'openConversationSession';

/** Sessions by handshake request, from `authenticate` to the WebSocket handler. */
export class PendingSessions {
  private readonly sessions = new WeakMap<IncomingMessage, Session>();

  constructor(private readonly service: Pick<ReferenceService, 'openSession'>) {}

  /**
   * Opens the session of a WebSocket handshake whose parameters are valid (invalid ones are left to the runtime's
   * 400); throws `HttpError` when the service refuses. The session is closed if the connection drops before `take`.
   */
  async prepare(request: IncomingRequest, route: RouteDefinition, principal: Principal): Promise<void> {
    if (route.operationId !== SESSION_OPERATION || !isUpgrade(request)) return;
    const { params, query } = route.validators;
    if (params?.(request.params) === false || query?.(request.query) === false) return;
    const conversationId = request.params.conversation_id ?? '';
    const lastEventId = typeof request.query.last_event_id === 'string' ? request.query.last_event_id : undefined;
    const session = await callService(() => this.service.openSession(principal, conversationId, lastEventId));
    this.sessions.set(request.raw, session);
    request.raw.socket.once('close', () => this.take(request.raw)?.events.close());
  }

  /** The session opened for this handshake (once). */
  take(raw: IncomingMessage): Session | undefined {
    const session = this.sessions.get(raw);
    this.sessions.delete(raw);
    return session;
  }
}

/** A WebSocket handshake (a plain GET of the session path is answered 400 by the runtime, and opens nothing). */
function isUpgrade(request: IncomingRequest): boolean {
  return String(request.headers.upgrade).toLowerCase() === 'websocket';
}
