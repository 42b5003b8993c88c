/** Locks by key across every process on one PostgreSQL database (instances of one shared sandbox). */
import { KeyedQueue, type Locks } from '../keyed-queue.js';
import type { Database } from './types.js';

/**
 * This process's queue first (so it holds at most one connection per key), then a session-level advisory lock on
 * the key's 64-bit hash, held by a connection of its own while `task` runs.
 */
export class DatabaseLocks implements Locks {
  private readonly local = new KeyedQueue();

  constructor(private readonly db: Database) {}

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.local.run(key, () =>
      this.db.session(async (connection) => {
        await connection.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
        try {
          return await task();
        } finally {
          await connection.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        }
      }),
    );
  }
}
