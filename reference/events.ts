/** Builds `ServerEvent` envelopes: a fresh `ev_` id, the conversation's agent version and livemode, `experimental`. */
import type { ServerEvent, ServerEventPayload, ServerEventType } from '../generated/src/types.gen.js';
import { newId } from './ids.js';

/** The payload types the spec marks experimental (the envelope's `experimental` is true for them). */
export const EXPERIMENTAL_EVENT_TYPES: ReadonlySet<ServerEventType> = new Set<ServerEventType>([
  'agent.customer.loaded',
  'agent.dtmf.sent',
  'agent.notice.sent',
  'user.dtmf.received',
]);

/** What an envelope takes from its conversation. */
export interface EventSource {
  readonly id: string;
  readonly agent_id: string;
  readonly livemode: boolean;
}

/** A new event of `conversation` carrying `payload`, created at `createdAt` (ISO 8601); a fresh id unless given. */
export function buildEvent(
  conversation: EventSource,
  payload: ServerEventPayload,
  createdAt: string,
  id: string = newId('ev'),
): ServerEvent {
  return {
    id,
    created_at: createdAt,
    agent_id: conversation.agent_id,
    livemode: conversation.livemode,
    conversation_id: conversation.id,
    experimental: EXPERIMENTAL_EVENT_TYPES.has(payload.type),
    payload,
  } as ServerEvent;
}
