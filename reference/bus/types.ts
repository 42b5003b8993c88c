/**
 * The event bus: one ordered, append-only log of `ServerEvent`s per conversation, read from any event id and
 * followed live. Subscribers pull from the shared log by position, so a slow one never blocks appends or others.
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';

/** A live reader of one conversation's log: the events after its start, then each new one, in order. */
export interface Subscription extends AsyncIterableIterator<ServerEvent, undefined> {
  /**
   * Resolves with the next event, waiting for one if needed; `done` after `conversation.ended` has been read,
   * after `close()`, or once the log has been purged.
   */
  next(): Promise<IteratorResult<ServerEvent, undefined>>;
  /** The next event if the log already holds it (no waiting), as `next` would give it; else undefined. */
  poll(): ServerEvent | undefined;
  /** Stops the subscription; a pending `next()` resolves `done`. */
  close(): void;
  /** Events in the log not yet read by this subscriber (what a slow subscriber costs: a number, no copies). */
  readonly lag: number;
  /** True once it ended because the events it was to read next were dropped (a bounded history). */
  readonly lost: boolean;
}

/** Thrown by `append` after `conversation.ended`: nothing may follow the end of a conversation. */
export class EventLogClosedError extends Error {
  override readonly name = 'EventLogClosedError';
  constructor(readonly conversationId: string) {
    super(`The event log of ${conversationId} is closed: conversation.ended was its last event`);
  }
}

/** Thrown when a read or subscription starts before the oldest event kept: the events it asks for were dropped. */
export class EventsDroppedError extends Error {
  override readonly name = 'EventsDroppedError';
  constructor(readonly afterId: string | undefined) {
    super(
      afterId === undefined
        ? 'The history of this conversation was dropped.'
        : `The events after ${afterId} are no longer kept (or it names no event of the conversation).`,
    );
  }
}

/** The per-conversation event logs. Event ids are unique across conversations. */
export interface EventBus {
  /**
   * Appends an event, which must not be changed afterwards (readers may all get the same object; the memory bus
   * freezes it); throws `EventLogClosedError` once `conversation.ended` has been appended.
   */
  append(conversationId: string, event: ServerEvent): Promise<void>;
  /**
   * Names the log's current end `id`, without adding an event: used for an event sent to one subscriber only
   * (a session's own `server.error`), so that resuming after it works. Only the newest marks are kept.
   */
  mark(conversationId: string, id: string): Promise<void>;
  /**
   * Every event kept, or those after `afterId`; `undefined` when `afterId` names no event or mark of the log;
   * throws `EventsDroppedError` when the events after `afterId` are no longer kept.
   */
  read(conversationId: string, afterId?: string): Promise<ServerEvent[] | undefined>;
  /**
   * A subscription from the start (waiting for the first event if the log is still empty), or after `afterId`;
   * `undefined` when `afterId` names no event or mark of the log; throws `EventsDroppedError` when the events after
   * `afterId` are no longer kept.
   */
  subscribe(conversationId: string, afterId?: string): Promise<Subscription | undefined>;
  /** Drops the log (retention is over); its subscriptions end. */
  purge(conversationId: string): Promise<void>;
  /**
   * A bus that keeps its logs in a database deletes there, by SQL, the logs of conversations that ended before
   * `before` (ISO 8601), instead of a timer per conversation; returns how many.
   */
  purgeEndedBefore?(before: string): Promise<number>;
}
