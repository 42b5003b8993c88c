/** Runs tasks one at a time per key (e.g. per conversation), so that each key's events and writes never interleave. */

/** Runs tasks one at a time per key: in this process (`KeyedQueue`) or across processes (`DatabaseLocks`). */
export interface Locks {
  /** Runs `task` after every task queued before it under `key`; its result or error is passed through. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/** A set of FIFO queues by key; tasks of different keys run concurrently. */
export class KeyedQueue implements Locks {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued before it under `key`; its result or error is passed through. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with queued or running tasks. */
  get size(): number {
    return this.tails.size;
  }
}
