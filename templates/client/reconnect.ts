/** The reconnect budget of streams and sessions: backoff between attempts, a cap on consecutive failures. */
import { DEFAULT_MAX_RECONNECTS, isRetryable, retryDelay } from './retry.js';

/** How a stream or session reconnects after a drop. */
export interface ReconnectOptions {
  /** Consecutive failed connections before giving up (default 10); a connection that delivers an event resets it. */
  maxReconnects?: number | undefined;
  /** Base of the backoff in ms (default 500; an SSE server's `retry:` replaces it). */
  reconnectDelayMs?: number | undefined;
  /** Cap of the backoff in ms (default 8000). */
  maxReconnectDelayMs?: number | undefined;
}

/** A connection that stayed up this long counts as healthy even if it delivered nothing new. */
export const HEALTHY_CONNECTION_MS = 10_000;

/** Counts consecutive failures and picks the wait before the next attempt. */
export class ReconnectBudget {
  #failures = 0;
  /** Base of the backoff; an SSE `retry:` field updates it. */
  baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxReconnects: number;

  constructor(options: ReconnectOptions) {
    this.baseDelayMs = options.reconnectDelayMs ?? 500;
    this.#maxDelayMs = options.maxReconnectDelayMs ?? 8_000;
    this.#maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  }

  /** The last connection made progress: the next failure is the first again. */
  reset(): void {
    this.#failures = 0;
  }

  /**
   * Records a failed or dropped connection and returns the wait before the next attempt; rethrows `error` when it
   * is not retryable, the budget is spent, or the server asks to wait longer than `retryDelay` accepts.
   */
  next(error: unknown): number {
    if (!isRetryable(error) || this.#failures >= this.#maxReconnects) throw error;
    const attempt = this.#failures++;
    const delay = retryDelay(error, attempt, { baseDelayMs: this.baseDelayMs, maxDelayMs: this.#maxDelayMs });
    if (delay === undefined) throw error;
    return delay;
  }
}
