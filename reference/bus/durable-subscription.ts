/**
 * A subscription of the durable bus: it reads from the database, a page at a time, the events the in-memory copy no
 * longer holds (a resume from long ago, a subscriber that fell behind), then follows the in-memory copy from there.
 * It never ends for lagging: whatever the database keeps (the retention) is given in order, with the same ids.
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';
import type { Subscription } from './types.js';

/** Where a conversation's events come from, by absolute position (0: its first event ever). */
export interface EventSource {
  /** The events stored from `position` on, a page of them in order; none once the log was purged. */
  page(position: number): Promise<ServerEvent[]>;
  /** A live subscription from `position`, or undefined when memory no longer holds it. */
  live(position: number): Subscription | undefined;
  /** The position after the newest event. */
  end(): number;
}

/** Reads `source` from `position` on; done after `conversation.ended`, `close()`, or a purge. */
export class DurableSubscription implements Subscription {
  readonly lost = false;
  private page: ServerEvent[] = [];
  private inner: Subscription | undefined;
  private closed = false;

  constructor(
    private readonly source: EventSource,
    private position: number,
  ) {
    this.inner = source.live(position);
  }

  get lag(): number {
    return Math.max(0, this.source.end() - this.position);
  }

  async next(): Promise<IteratorResult<ServerEvent, undefined>> {
    for (;;) {
      if (this.closed) return this.finish();
      const ready = this.poll();
      if (ready !== undefined) return { done: false, value: ready };
      if (this.inner !== undefined && !this.inner.lost) {
        const next = await this.inner.next();
        if (!next.done) return { done: false, value: this.advance(next.value) };
        // Done without falling behind: ended, closed or purged.
        if (!this.inner.lost) return this.finish();
      }
      this.inner = this.source.live(this.position);
      if (this.inner !== undefined) continue;
      this.page = await this.source.page(this.position);
      if (this.page.length === 0) return this.finish();
    }
  }

  poll(): ServerEvent | undefined {
    if (this.closed) return undefined;
    const stored = this.page.shift();
    if (stored !== undefined) return this.advance(stored);
    const live = this.inner?.poll();
    return live === undefined ? undefined : this.advance(live);
  }

  async return(): Promise<IteratorResult<ServerEvent, undefined>> {
    return this.finish();
  }

  close(): void {
    this.closed = true;
    this.inner?.close();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Moves past `event` (the subscription is over after `conversation.ended`); returns it. */
  private advance(event: ServerEvent): ServerEvent {
    this.position++;
    if (event.payload.type === 'conversation.ended') this.close();
    return event;
  }

  private finish(): IteratorResult<ServerEvent, undefined> {
    this.close();
    return { done: true, value: undefined };
  }
}
