/**
 * Opening a conversation's events for the SSE stream or the WebSocket session: history then live events, resume
 * after an event id, 204 when an ended conversation has nothing left, 404 once retention is over, 410 when the
 * events asked for are no longer kept.
 */
import { type EventBus, EventsDroppedError, type Subscription } from './bus/types.js';
import { type ConversationService, expiredError } from './conversations.js';
import { serviceError } from './errors.js';
import { isEnded } from './runtime.js';

/** What opening the stream gives: the events to send, or 204 (an ended conversation with nothing left to send). */
export type EventStreamOpening = { readonly status: 204 } | { readonly status: 200; readonly events: Subscription };

/** Opens event subscriptions with the checks of DECISIONS.md ("SSE framing", "WebSocket"). */
export class EventStreams {
  constructor(
    private readonly bus: EventBus,
    private readonly conversations: ConversationService,
  ) {}

  /**
   * The conversation's events after `lastEventId` (all without it). 404 `not_found`, 404 `event_stream_expired`,
   * 400 `unknown_event_id`. For the SSE stream (`noContent`), resuming after the last event of an ended
   * conversation answers 204; the session instead stays open with nothing to replay.
   */
  async open(org: string, conversationId: string, lastEventId: string | undefined, noContent: boolean) {
    const record = await this.conversations.record(org, conversationId);
    if (this.conversations.expired(record)) throw expiredError(conversationId);
    const events = await this.bus.subscribe(conversationId, lastEventId).catch((error: unknown) => {
      if (error instanceof EventsDroppedError) throw serviceError('events_dropped', error.message);
      throw error;
    });
    if (events === undefined) {
      throw serviceError('unknown_event_id', `${lastEventId} is not an event of conversation ${conversationId}.`);
    }
    if (noContent && lastEventId !== undefined && isEnded(record) && events.lag === 0) {
      events.close();
      return { status: 204 } as const satisfies EventStreamOpening;
    }
    return { status: 200, events } as const satisfies EventStreamOpening;
  }
}
