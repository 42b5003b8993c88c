/**
 * The in-memory event bus. Each subscriber holds only its position in the shared log, so its cost is O(1)
 * whatever its lag: appends never wait for subscribers and never copy events per subscriber. Events are frozen
 * (deeply) on append and every reader gets the same object. The log itself is kept until `purge` (the retention
 * window), within two limits: a conversation keeps its newest `perConversation` events, and all logs together
 * hold at most `total`, past which the oldest histories are dropped, those of ended conversations first. A
 * position before what is kept is `EventsDroppedError`.
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { deepFreeze } from '../freeze.js';
import { type EventBus, EventLogClosedError, EventsDroppedError, type Subscription } from './types.js';

/** Marks (ids of events sent to one subscriber only) kept per conversation; older ones are forgotten. */
export const MAX_MARKS_PER_CONVERSATION = 256;

/** How many events the memory bus keeps: per conversation (the newest), and in all logs together. */
export interface EventLimits {
  readonly perConversation: number;
  readonly total: number;
}

/** The documented defaults (DECISIONS.md "Event memory"). */
export const DEFAULT_EVENT_LIMITS: EventLimits = { perConversation: 20_000, total: 200_000 };

/**
 * The defaults of the in-memory copy when a database keeps every event (DECISIONS.md "Event memory"): older events
 * are read back from the database, so memory holds only what live subscribers are about to read.
 */
export const DATABASE_EVENT_LIMITS: EventLimits = { perConversation: 1_000, total: 10_000 };

class ConversationLog {
  /** The events kept: those at absolute positions `dropped`, `dropped + 1`, … */
  events: ServerEvent[] = [];
  /** Events dropped from the front of the log (absolute positions start at 0 with the first event ever). */
  dropped = 0;
  /** Event id → the absolute position just after it, for the events kept. */
  readonly positions = new Map<string, number>();
  readonly marks = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private wakeScheduled = false;
  purged = false;
  ended = false;

  /** Absolute position of the end of the log. */
  get end(): number {
    return this.dropped + this.events.length;
  }

  /**
   * The absolute position just after `id` (0 without one); undefined when `id` names nothing of the log. Once events
   * were dropped an id not found may have been one of them: `EventsDroppedError`.
   */
  positionAfter(id: string | undefined): number | undefined {
    if (id === undefined) return this.dropped;
    const position = this.positions.get(id) ?? this.marks.get(id);
    if (position !== undefined && position >= this.dropped) return position;
    if (this.dropped > 0) throw new EventsDroppedError(id);
    return position;
  }

  at(position: number): ServerEvent | undefined {
    return this.events[position - this.dropped];
  }

  /** Drops the oldest `count` events kept (all with `Infinity`); returns how many were dropped. */
  dropOldest(count: number): number {
    const gone = this.events.splice(0, Math.min(count, this.events.length));
    for (const event of gone) this.positions.delete(event.id);
    this.dropped += gone.length;
    for (const [id, position] of this.marks) if (position < this.dropped) this.marks.delete(id);
    return gone.length;
  }

  /** Resolves after the next append (see `wakeSoon`), at a purge or at `wake()`. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const resolve of waiters) resolve();
  }

  /**
   * `wake()` once the current turn of the event loop is over: the appends of one turn (several requests read
   * together under load) then reach each subscriber together, and go out in one write.
   */
  wakeSoon(): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wake();
    });
  }
}

class LogSubscription implements Subscription {
  private closed = false;
  lost = false;

  constructor(
    private readonly log: ConversationLog,
    private position: number,
  ) {}

  get lag(): number {
    return this.log.end - this.position;
  }

  async next(): Promise<IteratorResult<ServerEvent, undefined>> {
    for (;;) {
      if (this.closed || this.log.purged) return this.finish();
      const event = this.poll();
      if (event !== undefined) return { done: false, value: event };
      // Closed by `poll` too, when it finds the subscriber fell behind what is kept: it ends now, not at the next append.
      if (this.closed || this.log.ended) return this.finish();
      await this.log.changed();
    }
  }

  poll(): ServerEvent | undefined {
    if (this.closed || this.log.purged) return undefined;
    // A subscriber that lagged behind what is kept ends: resuming from its last event is then 410.
    if (this.position < this.log.dropped) {
      this.lost = true;
      this.close();
      return undefined;
    }
    const event = this.log.at(this.position);
    if (event === undefined) return undefined;
    this.position++;
    if (event.payload.type === 'conversation.ended') this.closed = true;
    return event;
  }

  async return(): Promise<IteratorResult<ServerEvent, undefined>> {
    return this.finish();
  }

  close(): void {
    this.closed = true;
    this.log.wake();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): IteratorResult<ServerEvent, undefined> {
    this.closed = true;
    return { done: true, value: undefined };
  }
}

/** An `EventBus` in process memory, within `limits`. */
export class MemoryEventBus implements EventBus {
  private readonly logs = new Map<string, ConversationLog>();
  /** Conversations whose log still holds events after `conversation.ended`, oldest end first: dropped first. */
  private readonly endedOrder = new Set<string>();
  private held = 0;

  constructor(private readonly limits: EventLimits = DEFAULT_EVENT_LIMITS) {}

  /** Events all logs hold now. */
  get heldEvents(): number {
    return this.held;
  }

  async append(conversationId: string, event: ServerEvent): Promise<void> {
    const log = this.log(conversationId);
    if (log.ended) throw new EventLogClosedError(conversationId);
    log.events.push(deepFreeze(event));
    log.positions.set(event.id, log.end);
    this.held++;
    if (event.payload.type === 'conversation.ended') {
      log.ended = true;
      this.endedOrder.add(conversationId);
    }
    if (log.events.length > this.limits.perConversation) this.held -= log.dropOldest(1);
    if (this.held > this.limits.total) this.dropHistories(conversationId);
    log.wakeSoon();
  }

  async mark(conversationId: string, id: string): Promise<void> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return;
    log.marks.set(id, log.end);
    for (const oldest of log.marks.keys()) {
      if (log.marks.size <= MAX_MARKS_PER_CONVERSATION) break;
      log.marks.delete(oldest);
    }
  }

  async read(conversationId: string, afterId?: string): Promise<ServerEvent[] | undefined> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return afterId === undefined ? [] : undefined;
    const start = log.positionAfter(afterId);
    return start === undefined ? undefined : log.events.slice(start - log.dropped);
  }

  async subscribe(conversationId: string, afterId?: string): Promise<Subscription | undefined> {
    const existing = this.logs.get(conversationId);
    if (existing === undefined && afterId !== undefined) return undefined;
    const log = existing ?? this.log(conversationId);
    // A whole history dropped after its end: nothing would ever come.
    if (afterId === undefined && log.ended && log.events.length === 0) throw new EventsDroppedError(undefined);
    const start = log.positionAfter(afterId);
    return start === undefined ? undefined : new LogSubscription(log, start);
  }

  /** The absolute positions the log holds: from `kept` (its oldest event kept) to `end`; undefined without a log. */
  extent(conversationId: string): { readonly kept: number; readonly end: number } | undefined {
    const log = this.logs.get(conversationId);
    return log === undefined ? undefined : { kept: log.dropped, end: log.end };
  }

  /** The absolute position just after `id` (an event or a mark), if the log still holds it; else undefined. */
  positionAfterId(conversationId: string, id: string): number | undefined {
    const log = this.logs.get(conversationId);
    const position = log?.positions.get(id) ?? log?.marks.get(id);
    return log === undefined || position === undefined || position < log.dropped ? undefined : position;
  }

  /** The events kept from absolute `position` on; undefined when events before it were dropped. */
  readAt(conversationId: string, position: number): ServerEvent[] | undefined {
    const log = this.logs.get(conversationId);
    if (log === undefined) return position === 0 ? [] : undefined;
    return position < log.dropped ? undefined : log.events.slice(position - log.dropped);
  }

  /** Makes the log of a conversation whose first `position` events are kept elsewhere (none if it has a log). */
  startAt(conversationId: string, position: number): void {
    if (this.logs.has(conversationId)) return;
    this.log(conversationId).dropped = position;
  }

  /** A subscription from absolute `position` (an empty log is made); undefined when it is no longer kept. */
  subscribeAt(conversationId: string, position: number): Subscription | undefined {
    const log = this.log(conversationId);
    return position < log.dropped ? undefined : new LogSubscription(log, position);
  }

  async purge(conversationId: string): Promise<void> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return;
    this.logs.delete(conversationId);
    this.endedOrder.delete(conversationId);
    this.held -= log.events.length;
    log.purged = true;
    log.wake();
  }

  /**
   * Drops whole histories until the logs hold a tenth less than `total`: those of ended conversations, oldest end
   * first, then those of live conversations, oldest first; never that of `appending`. A dropped log keeps its
   * length and whether it ended, so that a resume from it is told its events are gone.
   */
  private dropHistories(appending: string): void {
    const target = Math.floor(this.limits.total * 0.9);
    for (const id of this.endedOrder) {
      if (this.held <= target) return;
      this.endedOrder.delete(id);
      const log = this.logs.get(id);
      if (log !== undefined && id !== appending) this.held -= log.dropOldest(Number.POSITIVE_INFINITY);
    }
    for (const [id, log] of this.logs) {
      if (this.held <= target) return;
      if (id !== appending) this.held -= log.dropOldest(Number.POSITIVE_INFINITY);
    }
  }

  /** Conversations with a log (for tests and diagnostics). */
  get size(): number {
    return this.logs.size;
  }

  private log(conversationId: string): ConversationLog {
    let log = this.logs.get(conversationId);
    if (log === undefined) {
      log = new ConversationLog();
      this.logs.set(conversationId, log);
    }
    return log;
  }
}
