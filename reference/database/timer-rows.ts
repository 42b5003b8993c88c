/** Durable timers in the `timers` table (see `TimerGroup`): one row per pending timer, claimed once. */
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
        'INSERT INTO timers (name, due_at) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET due_at = excluded.due_at',
        [name, dueAt],
      ),
    );
  }

  async remove(prefix: string): Promise<void> {
    await this.queue.run(ownerOf(prefix), () =>
      this.db.query('DELETE FROM timers WHERE starts_with(name, $1)', [prefix]),
    );
  }

  async claim(name: string, dueAt: number): Promise<boolean> {
    const rows = await this.queue.run(ownerOf(name), () =>
      this.db.query('DELETE FROM timers WHERE name = $1 AND due_at = $2 RETURNING name', [name, dueAt]),
    );
    return rows.length > 0;
  }

  /** The rows due before `before` (every row without it), oldest first. */
  async due(before = Number.MAX_SAFE_INTEGER): Promise<TimerRow[]> {
    const rows = await this.db.query<{ name: string; due_at: string }>(
      'SELECT name, due_at FROM timers WHERE due_at < $1 ORDER BY due_at',
      [before],
    );
    return rows.map((row) => ({ name: row.name, dueAt: Number(row.due_at) }));
  }
}

/** The owner of a timer's name (or of a prefix that names one owner): up to its first `/`, else all of it. */
function ownerOf(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(0, slash);
}
