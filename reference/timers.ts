/** A named set of timers on the service clock: replace by name, cancel by name or prefix, cancel all on close. */
import type { Clock, TimerHandle } from './clock.js';

/** Reports an error of background work (a timer); the service logs it. */
export type ErrorReporter = (error: unknown, context: string) => void;

/** Timers by name; a task that throws is reported, never left as an unhandled rejection. */
export class TimerGroup {
  private readonly handles = new Map<string, TimerHandle>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly onError: ErrorReporter,
  ) {}

  /** Runs `task` `delayMs` from now; a pending timer of the same name is replaced. Ignored after `close()`. */
  set(name: string, delayMs: number, task: () => void | Promise<void>): void {
    if (this.closed) return;
    this.handles.get(name)?.cancel();
    const handle = this.clock.setTimer(delayMs, async () => {
      if (this.handles.get(name) === handle) this.handles.delete(name);
      try {
        await task();
      } catch (error) {
        this.onError(error, `timer ${name}`);
      }
    });
    this.handles.set(name, handle);
  }

  /** Cancels every pending timer whose name starts with `prefix`. */
  cancelPrefix(prefix: string): void {
    for (const [name, handle] of this.handles) {
      if (!name.startsWith(prefix)) continue;
      handle.cancel();
      this.handles.delete(name);
    }
  }

  /** Names of the pending timers, optionally only those starting with `prefix`. */
  names(prefix = ''): string[] {
    return [...this.handles.keys()].filter((name) => name.startsWith(prefix));
  }

  /** Cancels everything; later `set` calls do nothing. */
  close(): void {
    this.closed = true;
    for (const handle of this.handles.values()) handle.cancel();
    this.handles.clear();
  }
}
