/** One injectable clock for the emulator: the current time and timers, real or fake (tests fast-forward it). */

/** A scheduled callback; `cancel()` stops it if it has not run yet. */
export interface TimerHandle {
  cancel(): void;
}

/** Time as the service sees it. Every delay in the emulator (token TTL, retention, phone progress) goes through it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `callback` once, `delayMs` from now. A rejected promise is the callback's own business to report. */
  setTimer(delayMs: number, callback: () => void | Promise<void>): TimerHandle;
}

/** The longest delay `setTimeout` takes (about 24.8 days); a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The wall clock; its timers do not keep the process alive, and a delay longer than `MAX_TIMEOUT_MS` is kept. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(delayMs, callback) {
    const due = Date.now() + Math.max(0, delayMs);
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = due - Date.now();
      timer =
        left > MAX_TIMEOUT_MS ? setTimeout(arm, MAX_TIMEOUT_MS) : setTimeout(() => void callback(), Math.max(0, left));
      timer.unref();
    };
    arm();
    return { cancel: () => clearTimeout(timer) };
  },
};

interface FakeTimer {
  readonly due: number;
  readonly seq: number;
  readonly callback: () => void | Promise<void>;
}

/** Most timers one `advance` runs; a guard against timers that keep rescheduling themselves at the same instant. */
export const FAKE_CLOCK_MAX_TIMERS_PER_ADVANCE = 100_000;

/** A clock that only moves when told to: `advance(ms)` runs the timers that fall due, in order, awaiting each. */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: FakeTimer[] = [];

  constructor(start: number | string = '2025-07-01T00:00:00.000Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  setTimer(delayMs: number, callback: () => void | Promise<void>): TimerHandle {
    const timer: FakeTimer = { due: this.current + Math.max(0, delayMs), seq: this.seq++, callback };
    this.timers.push(timer);
    return { cancel: () => this.remove(timer) };
  }

  /** Moves time forward by `ms`, running (and awaiting) each timer due on the way at its own instant. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (let run = 0; run < FAKE_CLOCK_MAX_TIMERS_PER_ADVANCE; run++) {
      const next = this.nextDue(target);
      if (next === undefined) {
        this.current = target;
        return;
      }
      this.remove(next);
      this.current = next.due;
      await next.callback();
    }
    throw new Error(`FakeClock.advance ran ${FAKE_CLOCK_MAX_TIMERS_PER_ADVANCE} timers without reaching the target`);
  }

  private nextDue(target: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers) {
      if (timer.due > target) continue;
      if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.seq < best.seq)) best = timer;
    }
    return best;
  }

  private remove(timer: FakeTimer): void {
    this.timers = this.timers.filter((t) => t !== timer);
  }
}

/** The clock's time as an ISO 8601 UTC timestamp. */
export function isoNow(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
