/** The idle timeout of streams and sessions: a connection silent for too long is given up for dead. */

/** The longest delay `setTimeout` keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Fires once when `ms` pass without a `touch()`; 0 (or `Infinity`) disables it. A touch only records the time: the
 * one timer checks it when it fires and waits for the rest if there was activity meanwhile.
 */
export class IdleTimer {
  fired = false;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly ms: number,
    readonly onIdle: () => void,
  ) {
    if (ms > 0 && Number.isFinite(ms)) this.#arm(ms);
  }
  touch(): void {
    this.#last = performance.now();
  }
  stop(): void {
    clearTimeout(this.#timer);
  }
  #arm(delay: number): void {
    // Longer delays than a timer holds would fire at once: wake up earlier and look again.
    this.#timer = setTimeout(
      () => {
        const silent = performance.now() - this.#last;
        if (silent < this.ms) return this.#arm(this.ms - silent);
        this.fired = true;
        this.onIdle();
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }
}
