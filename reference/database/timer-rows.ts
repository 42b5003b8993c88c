/** Durable timers in the `timers` table (see `TimerRows`): one row per pending timer, leased by its runner. */
import { KeyedQueue } from '../keyed-queue.js';
import type { TimerRows } from '../timers.js';
import type { Database } from './types.js';

/** A pending timer as a row. */
export interface TimerRow {
  readonly name: string;
  readonly dueAt: number;
}

/**
 * `TimerRows` in `db`. The writes of one owner go one at a time, in order, so a save never lands after the claim or
 * removal behind it; those of different owners (conversations, procedures) go concurrently.
 */
export class DatabaseTimerRows implements TimerRows {
  private readonly queue = new KeyedQueue();

  constructor(private readonly db: Database) {}

  async save(name: string, dueAt: number): Promise<void> {
    await this.queue.run(ownerOf(name), () =>
      this.db.query(
        `INSERT INTO timers (name, due_at, claimed_until) VALUES ($1, $2, 0)
          ON CONFLICT (name) DO UPDATE SET due_at = excluded.due_at, claimed_until = 0`,
        [name, dueAt],
      ),
    );
  }

  async remove(prefix: string): Promise<void> {
    await this.queue.run(ownerOf(prefix), () =>
      this.db.query('DELETE FROM timers WHERE starts_with(name, $1)', [prefix]),
    );
  }

  async claim(name: string, dueAt: number, now: number, until: number): Promise<boolean> {
    return this.leased(
      name,
      'UPDATE timers SET claimed_until = $4 WHERE name = $1 AND due_at = $2 AND claimed_until <= $3 RETURNING name',
      [name, dueAt, now, until],
    );
  }

  async renew(name: string, dueAt: number, lease: number, until: number): Promise<boolean> {
    return this.leased(
      name,
      'UPDATE timers SET claimed_until = $4 WHERE name = $1 AND due_at = $2 AND claimed_until = $3 RETURNING name',
      [name, dueAt, lease, until],
    );
  }

  async finish(name: string, dueAt: number, lease: number): Promise<void> {
    await this.queue.run(ownerOf(name), () =>
      this.db.query('DELETE FROM timers WHERE name = $1 AND due_at = $2 AND claimed_until = $3', [name, dueAt, lease]),
    );
  }

  /** Runs an `UPDATE … RETURNING` of the lease of `name`; true when it changed the row. */
  private async leased(name: string, sql: string, params: readonly (string | number)[]): Promise<boolean> {
    const rows = await this.queue.run(ownerOf(name), () => this.db.query(sql, params));
    return rows.length > 0;
  }

  /** The rows due before `before` whose lease is over at `now` (not leased, or their claimer stopped), oldest first. */
  async due(before: number, now: number): Promise<TimerRow[]> {
    const rows = await this.db.query<{ name: string; due_at: string }>(
      'SELECT name, due_at FROM timers WHERE due_at < $1 AND claimed_until <= $2 ORDER BY due_at',
      [before, now],
    );
    return rows.map((row) => ({ name: row.name, dueAt: Number(row.due_at) }));
  }
}

/** The owner of a timer's name (or of a prefix that names one owner): up to its first `/`, else all of it. */
function ownerOf(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(0, slash);
}
