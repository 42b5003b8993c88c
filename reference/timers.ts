/**
 * A named set of timers on the service clock: replace by name, cancel by name or prefix, cancel all on close. With
 * `TimerRows` (a database) the timers it may resume are also kept as rows: one fires only in the process that
 * claims its row (once across processes), and after a restart they are set again from the rows. `set` and
 * `cancelPrefix` resolve once the rows are written, so that work awaiting them is durable when acknowledged.
 */
import type { Clock, TimerHandle } from './clock.js';

/** Reports an error of background work (a timer); the service logs it. */
export type ErrorReporter = (error: unknown, context: string) => void;

/**
 * Where durable timers are kept: rows of a name and a due time (ms since the epoch). A row's owner is its name up to
 * its first `/` (a conversation's timers), else the whole name; the writes of one owner apply in the order asked.
 */
export interface TimerRows {
  /** Keeps (or moves) the row of `name`; resolves once written. */
  save(name: string, dueAt: number): Promise<void>;
  /** Deletes the rows whose name starts with `prefix` (a whole name, or an owner and `/`); resolves once done. */
  remove(prefix: string): Promise<void>;
  /** Deletes the row of `name` due at `dueAt`; true for the one caller that deleted it. */
  claim(name: string, dueAt: number): Promise<boolean>;
}

/** Timers by name; a task that throws is reported, never left as an unhandled rejection. */
export class TimerGroup {
  private readonly handles = new Map<string, TimerHandle>();
  private closed = false;

  /** `durable` names the timers kept in `rows` (those a restarted process can set again from their name). */
  constructor(
    private readonly clock: Clock,
    private readonly onError: ErrorReporter,
    private readonly rows: TimerRows | null = null,
    private readonly durable: (name: string) => boolean = () => false,
  ) {}

  /**
   * Runs `task` `delayMs` from now; a pending timer of the same name is replaced. Ignored after `close()`. Resolves
   * once a durable timer's row is written (at once for the others); rejects when it cannot be.
   */
  set(name: string, delayMs: number, task: () => void | Promise<void>): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.handles.get(name)?.cancel();
    const rows = this.rows !== null && this.durable(name) ? this.rows : null;
    const dueAt = this.clock.now() + delayMs;
    const saved = rows === null ? Promise.resolve() : rows.save(name, dueAt);
    const handle = this.clock.setTimer(delayMs, async () => {
      if (this.handles.get(name) === handle) this.handles.delete(name);
      try {
        if (rows !== null && !(await rows.claim(name, dueAt))) return;
        await task();
      } catch (error) {
        this.onError(error, `timer ${name}`);
      }
    });
    this.handles.set(name, handle);
    return saved;
  }

  /** True while a timer of this name is pending in this process. */
  has(name: string): boolean {
    return this.handles.has(name);
  }

  /** Cancels every pending timer whose name starts with `prefix`; resolves once its rows are deleted. */
  cancelPrefix(prefix: string): Promise<void> {
    for (const [name, handle] of this.handles) {
      if (!name.startsWith(prefix)) continue;
      handle.cancel();
      this.handles.delete(name);
    }
    return this.rows?.remove(prefix) ?? Promise.resolve();
  }

  /** Names of the pending timers, optionally only those starting with `prefix`. */
  names(prefix = ''): string[] {
    return [...this.handles.keys()].filter((name) => name.startsWith(prefix));
  }

  /** Cancels everything in this process (rows stay, for the next start); later `set` calls do nothing. */
  close(): void {
    this.closed = true;
    for (const handle of this.handles.values()) handle.cancel();
    this.handles.clear();
  }
}
