/** A push-based queue read by one async iterator at a time: buffers values until read, then ends or fails. */
import { CasiError } from './errors.js';

/**
 * Values pushed by a producer, read with `for await` by one reader at a time; later readers continue. While no
 * reader is attached, at most `limit` values wait: past it the oldest are dropped, and the next reader's first
 * `next()` rejects with `overflow(count)` (the one after it continues with the values kept).
 */
export class AsyncQueue<T> {
  readonly #values: T[] = [];
  readonly #waiting: { resolve: (result: IteratorResult<T, undefined>) => void; reject: (e: unknown) => void }[] = [];
  readonly #limit: number;
  readonly #overflow: (dropped: number) => unknown;
  #done = false;
  #error: { reason: unknown } | undefined;
  #reading = false;
  /** Values dropped since a reader last saw the overflow error. */
  #dropped = 0;

  /** `limit`: values kept while no reader is attached; `overflow(count)`: the error the next reader gets then. */
  constructor(limit: number, overflow: (dropped: number) => unknown) {
    this.#limit = limit;
    this.#overflow = overflow;
  }

  /** Adds a value (ignored once the queue has ended). */
  push(value: T): void {
    if (this.#done) return;
    const waiter = this.#waiting.shift();
    if (waiter) {
      waiter.resolve({ value, done: false });
      return;
    }
    this.#values.push(value);
    if (!this.#reading && this.#values.length > this.#limit) {
      this.#values.shift();
      this.#dropped++;
    }
  }

  /** Ends the queue: readers get the buffered values, then `done`. */
  end(): void {
    if (this.#done) return;
    this.#done = true;
    for (const waiter of this.#waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  /** Fails the queue: readers get the buffered values, then `reason` is thrown. */
  fail(reason: unknown): void {
    if (this.#done) return;
    this.#error = { reason };
    this.#done = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(reason);
  }

  /** A reader; `return()` (a `break`) releases it and keeps the remaining values for the next reader. */
  reader(): AsyncIterator<T, undefined> {
    if (this.#reading) throw new CasiError('This session is already being iterated.');
    this.#reading = true;
    let released = false;
    const release = (): IteratorResult<T, undefined> => {
      if (!released) {
        released = true;
        this.#reading = false;
        for (const waiter of this.#waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
      }
      return { value: undefined, done: true };
    };
    return {
      next: () => {
        if (released) return Promise.resolve(release());
        if (this.#dropped > 0) {
          const dropped = this.#dropped;
          this.#dropped = 0;
          release();
          return Promise.reject(this.#overflow(dropped));
        }
        if (this.#values.length > 0) return Promise.resolve({ value: this.#values.shift() as T, done: false });
        if (this.#error) {
          release();
          return Promise.reject(this.#error.reason);
        }
        if (this.#done) return Promise.resolve(release());
        return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
      },
      return: () => Promise.resolve(release()),
    };
  }
}
