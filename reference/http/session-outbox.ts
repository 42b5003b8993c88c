/**
 * What one session socket sends, in order: the conversation's events as the log has them, and this socket's own
 * `server.error`s, each placed after every event the log held when the error was marked (so that resuming after
 * the error's id replays exactly what followed it).
 */
import type { SessionSocket } from '../../generated/src/server.gen.js';
import type { ServerErrorEvent } from '../../generated/src/types.gen.js';
import type { Subscription } from '../bus/types.js';

/** Reads the conversation's log after an event (or mark) id; `undefined` when the id is unknown or the log gone. */
export type LogReader = (afterId: string | undefined) => Promise<readonly unknown[] | undefined>;

/** The outgoing frames of one session. */
export class SessionOutbox {
  /** Events handed to the socket so far. */
  private queued = 0;
  /** The last event handed to the socket, or where the session resumed. */
  private lastQueuedId: string | undefined;
  private pumping = true;
  /** Errors waiting for the events before them, by `due` (a count of queued events), in order. */
  private readonly waiting: { readonly due: number; readonly event: ServerErrorEvent }[] = [];

  constructor(
    private readonly socket: Pick<SessionSocket, 'closed' | 'sendJson'>,
    private readonly events: Subscription,
    private readonly readLog: LogReader,
    resumedAfter: string | undefined,
  ) {
    this.lastQueuedId = resumedAfter;
  }

  /** Sends every event, awaiting each write (backpressure), until the subscription ends or the socket closes. */
  async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.events.next();
        if (next.done || this.socket.closed) return;
        this.queued++;
        this.lastQueuedId = next.value.id;
        const written = this.socket.sendJson(next.value);
        this.release();
        if (!(await written)) return;
      }
    } finally {
      this.pumping = false;
      this.release();
    }
  }

  /** Sends `event` to this socket once the events logged before it have been sent. */
  async sendError(event: ServerErrorEvent): Promise<void> {
    const queued = this.queued;
    const ahead = this.pumping ? ((await this.readLog(this.lastQueuedId))?.length ?? 0) : 0;
    this.waiting.push({ due: queued + ahead, event });
    this.release();
  }

  /** Sends the waiting errors that are due (all of them once no more events will come). */
  private release(): void {
    for (let first = this.waiting[0]; first !== undefined; first = this.waiting[0]) {
      if (this.pumping && first.due > this.queued) return;
      this.waiting.shift();
      void this.socket.sendJson(first.event);
    }
  }
}
