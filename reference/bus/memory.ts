/**
 * The in-memory event bus. Each subscriber holds only its position in the shared log, so its cost is O(1)
 * whatever its lag: appends never wait for subscribers and never copy events per subscriber. Events are frozen
 * (deeply) on append and every reader gets the same object. The log itself is kept until `purge` (the retention
 * window).
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { deepFreeze } from '../freeze.js';
import { type EventBus, EventLogClosedError, type Subscription } from './types.js';

/** Marks (ids of events sent to one subscriber only) kept per conversation; older ones are forgotten. */
export const MAX_MARKS_PER_CONVERSATION = 256;

class ConversationLog {
  readonly events: ServerEvent[] = [];
  /** Event id → the position just after it. */
  readonly positions = new Map<string, number>();
  readonly marks = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private wakeScheduled = false;
  purged = false;

  get ended(): boolean {
    return this.events[this.events.length - 1]?.payload.type === 'conversation.ended';
  }

  positionAfter(id: string | undefined): number | undefined {
    if (id === undefined) return 0;
    return this.positions.get(id) ?? this.marks.get(id);
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

  constructor(
    private readonly log: ConversationLog,
    private position: number,
  ) {}

  get lag(): number {
    return this.log.events.length - this.position;
  }

  async next(): Promise<IteratorResult<ServerEvent, undefined>> {
    for (;;) {
      if (this.closed || this.log.purged) return this.finish();
      const event = this.poll();
      if (event !== undefined) return { done: false, value: event };
      if (this.log.ended) return this.finish();
      await this.log.changed();
    }
  }

  poll(): ServerEvent | undefined {
    if (this.closed || this.log.purged) return undefined;
    const event = this.log.events[this.position];
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

/** An `EventBus` in process memory. */
export class MemoryEventBus implements EventBus {
  private readonly logs = new Map<string, ConversationLog>();

  async append(conversationId: string, event: ServerEvent): Promise<void> {
    const log = this.log(conversationId);
    if (log.ended) throw new EventLogClosedError(conversationId);
    log.events.push(deepFreeze(event));
    log.positions.set(event.id, log.events.length);
    log.wakeSoon();
  }

  async mark(conversationId: string, id: string): Promise<void> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return;
    log.marks.set(id, log.events.length);
    for (const oldest of log.marks.keys()) {
      if (log.marks.size <= MAX_MARKS_PER_CONVERSATION) break;
      log.marks.delete(oldest);
    }
  }

  async read(conversationId: string, afterId?: string): Promise<ServerEvent[] | undefined> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return afterId === undefined ? [] : undefined;
    const start = log.positionAfter(afterId);
    return start === undefined ? undefined : log.events.slice(start);
  }

  async subscribe(conversationId: string, afterId?: string): Promise<Subscription | undefined> {
    const existing = this.logs.get(conversationId);
    if (existing === undefined && afterId !== undefined) return undefined;
    const log = existing ?? this.log(conversationId);
    const start = log.positionAfter(afterId);
    return start === undefined ? undefined : new LogSubscription(log, start);
  }

  async purge(conversationId: string): Promise<void> {
    const log = this.logs.get(conversationId);
    if (log === undefined) return;
    this.logs.delete(conversationId);
    log.purged = true;
    log.wake();
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
