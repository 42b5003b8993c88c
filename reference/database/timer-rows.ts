/** Durable timers in the `timers` table (see `TimerGroup`): one row per pending timer, claimed once. */
import type { ErrorReporter, TimerRows } from '../timers.js';
import type { Database } from './types.js';

/** A pending timer as a row. */
export interface TimerRow {
  readonly name: string;
  readonly dueAt: number;
}

/** `TimerRows` in `db`; writes go one at a time, in order, so a save never lands after the claim or removal behind it. */
export class DatabaseTimerRows implements TimerRows {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly onError: ErrorReporter,
  ) {}

  save(name: string, dueAt: number): void {
    void this.write(() =>
      this.db.query(
        'INSERT INTO timers (name, due_at) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET due_at = excluded.due_at',
        [name, dueAt],
      ),
    ).catch((error: unknown) => this.onError(error, `timer row ${name}`));
  }

  remove(prefix: string): void {
    void this.write(() => this.db.query('DELETE FROM timers WHERE starts_with(name, $1)', [prefix])).catch(
      (error: unknown) => this.onError(error, `timer rows ${prefix}`),
    );
  }

  async claim(name: string, dueAt: number): Promise<boolean> {
    const rows = await this.write(() =>
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

  private write<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task, task);
    this.chain = result.catch(() => undefined);
    return result;
  }
}
