/**
 * A named set of timers on the service clock: replace by name, cancel by name or prefix, cancel all on close. With
 * `TimerRows` (a shared database) the timers it may resume are also kept as rows: one fires only in the process that
 * claims its row (once across processes), and after a restart they are set again from the rows.
 */
import type { Clock, TimerHandle } from './clock.js';

/** Reports an error of background work (a timer); the service logs it. */
export type ErrorReporter = (error: unknown, context: string) => void;

/** Where durable timers are kept: rows of a name and a due time (ms since the epoch). */
export interface TimerRows {
  /** Keeps (or moves) the row of `name`; writes of one process apply in the order they were asked. */
  save(name: string, dueAt: number): void;
  /** Deletes the rows whose name starts with `prefix`. */
  remove(prefix: string): void;
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

  /** Runs `task` `delayMs` from now; a pending timer of the same name is replaced. Ignored after `close()`. */
  set(name: string, delayMs: number, task: () => void | Promise<void>): void {
    if (this.closed) return;
    this.handles.get(name)?.cancel();
    const rows = this.rows !== null && this.durable(name) ? this.rows : null;
    const dueAt = this.clock.now() + delayMs;
    rows?.save(name, dueAt);
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
  }

  /** True while a timer of this name is pending in this process. */
  has(name: string): boolean {
    return this.handles.has(name);
  }

  /** Cancels every pending timer whose name starts with `prefix` (and its rows). */
  cancelPrefix(prefix: string): void {
    for (const [name, handle] of this.handles) {
      if (!name.startsWith(prefix)) continue;
      handle.cancel();
      this.handles.delete(name);
    }
    this.rows?.remove(prefix);
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
