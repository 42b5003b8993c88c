/**
 * A named set of timers on the service clock: replace by name, cancel by name or prefix, cancel all on close. With
 * `TimerRows` (a database) the timers it may resume are also kept as rows: one fires in the process that leases its
 * row, and after a restart (or the end of a lease) they are set again from the rows. `set` and `cancelPrefix`
 * resolve once the rows are written, so that work awaiting them is durable when acknowledged.
 */
import type { Clock, TimerHandle } from './clock.js';

/** Reports an error of background work (a timer); the service logs it. */
export type ErrorReporter = (error: unknown, context: string) => void;

/** How long a claimed timer's row stays leased to its claimer without a renewal (ms). */
export const TIMER_LEASE_MS = 5_000;
/** How often a claimer renews the lease while the timer's task runs (ms). */
export const TIMER_RENEW_MS = 1_000;

/**
 * Where durable timers are kept: rows of a name, a due time and a lease end (ms since the epoch). A row's owner is
 * its name up to its first `/` (a conversation's timers), else the whole name; the writes of one owner apply in the
 * order asked.
 *
 * The guarantee: a due row is leased by one process at a time (`claim`), which runs the task, renewing the lease
 * meanwhile, and deletes the row after it (`finish`). A claimer killed before that leaves the row leased; once the
 * lease is over any process, a restarted one included, claims it and runs the task again. So a timer is never lost,
 * and runs twice only when its claimer dies (or stalls past its lease) during its task: tasks therefore check the
 * state they move from, and do nothing when it has already moved.
 */
export interface TimerRows {
  /** Keeps (or moves) the row of `name`, not leased; resolves once written. */
  save(name: string, dueAt: number): Promise<void>;
  /** Deletes the rows whose name starts with `prefix` (a whole name, or an owner and `/`); resolves once done. */
  remove(prefix: string): Promise<void>;
  /**
   * Leases the row of `name` due at `dueAt` until `until`, unless its lease runs past `now`; true for the one caller
   * that got it.
   */
  claim(name: string, dueAt: number, now: number, until: number): Promise<boolean>;
  /** Moves the lease that ends at `lease` on to `until`; false when the row is gone or leased anew. */
  renew(name: string, dueAt: number, lease: number, until: number): Promise<boolean>;
  /** Deletes the row of `name` due at `dueAt` if it still holds the lease that ends at `lease`. */
  finish(name: string, dueAt: number, lease: number): Promise<void>;
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
    const rows = this.rowsOf(name);
    const dueAt = this.clock.now() + delayMs;
    this.arm(name, dueAt, task, rows);
    return rows === null ? Promise.resolve() : rows.save(name, dueAt);
  }

  /**
   * Runs `task` at once, as a timer due now: a durable one's row is written first and the task runs under its lease,
   * so that a process killed meanwhile leaves it to be run again. `written` resolves once the row is written (at
   * once for the others) and rejects when it cannot be; `done` once the task is over (an error is reported).
   */
  start(name: string, task: () => void | Promise<void>): { written: Promise<void>; done: Promise<void> } {
    if (this.closed) return { written: Promise.resolve(), done: Promise.resolve() };
    const rows = this.rowsOf(name);
    const dueAt = this.clock.now();
    const written = rows === null ? Promise.resolve() : rows.save(name, dueAt);
    const done = written.then(
      () => this.fire(name, dueAt, task, rows),
      () => undefined,
    );
    return { written, done };
  }

  /**
   * Sets the timer of a row found in `TimerRows` (due at `dueAt`) in this process, without writing the row: it runs
   * here only if this process claims the row, and not at all if the row is gone by then.
   */
  resume(name: string, dueAt: number, task: () => void | Promise<void>): void {
    if (this.closed || this.rows === null) return;
    this.arm(name, dueAt, task, this.rows);
  }

  /** Where the timer `name` is kept: `rows` for a durable one, none for the others. */
  private rowsOf(name: string): TimerRows | null {
    return this.rows !== null && this.durable(name) ? this.rows : null;
  }

  /** Sets the timer in this process (replacing one of the same name); with `rows`, the task runs under a lease. */
  private arm(name: string, dueAt: number, task: () => void | Promise<void>, rows: TimerRows | null): void {
    this.handles.get(name)?.cancel();
    const handle = this.clock.setTimer(dueAt - this.clock.now(), async () => {
      if (this.handles.get(name) === handle) this.handles.delete(name);
      await this.fire(name, dueAt, task, rows);
    });
    this.handles.set(name, handle);
  }

  /** Runs a timer that is due: with `rows`, under a lease; an error is reported. */
  private async fire(
    name: string,
    dueAt: number,
    task: () => void | Promise<void>,
    rows: TimerRows | null,
  ): Promise<void> {
    try {
      await (rows === null ? task() : this.runLeased(rows, name, dueAt, task));
    } catch (error) {
      this.onError(error, `timer ${name}`);
    }
  }

  /** Claims the row, runs `task` while renewing the lease, then deletes the row (see `TimerRows`). */
  private async runLeased(
    rows: TimerRows,
    name: string,
    dueAt: number,
    task: () => void | Promise<void>,
  ): Promise<void> {
    const lease = { until: this.clock.now() + TIMER_LEASE_MS, running: true, renewal: Promise.resolve() };
    if (!(await rows.claim(name, dueAt, this.clock.now(), lease.until))) return;
    const renew = async () => {
      const until = this.clock.now() + TIMER_LEASE_MS;
      const renewed = await rows.renew(name, dueAt, lease.until, until).catch((error: unknown) => {
        this.onError(error, `timer ${name} (lease)`);
        return false;
      });
      if (!renewed) return;
      lease.until = until;
      if (lease.running) timer = this.clock.setTimer(TIMER_RENEW_MS, renewLater);
    };
    const renewLater = () => {
      lease.renewal = renew();
    };
    let timer = this.clock.setTimer(TIMER_RENEW_MS, renewLater);
    try {
      await task();
    } finally {
      lease.running = false;
      timer.cancel();
      await lease.renewal;
      await rows.finish(name, dueAt, lease.until);
    }
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

  /** Cancels everything in this process (rows stay, for the next start); later calls set or start nothing. */
  close(): void {
    this.closed = true;
    for (const handle of this.handles.values()) handle.cancel();
    this.handles.clear();
  }
}
