/**
 * Reads by id from a table other processes write too (PostgreSQL shared by several instances), checked against the
 * copies this process holds. A row's version is its `xmin`, the transaction that wrote it: every write changes it,
 * so a held copy whose version is still the row's is the row. Reads asked while a statement runs wait for the next
 * one, which takes them all: each read is answered by a statement sent after it was asked (it sees every write
 * acknowledged before), and one round trip serves every read waiting for it.
 */

import { fromJsonColumn } from '../database/json-column.js';
import type { Database } from '../database/types.js';
import { deepFreeze } from '../freeze.js';

/** A record and the version of the row it was read from or written as. */
export interface Versioned<T> {
  readonly record: T;
  readonly version: string;
}

/** A read waiting for its statement: the copy held when it was asked, and its answer. */
interface Waiting<T> {
  readonly held: Versioned<T> | undefined;
  readonly answer: Promise<Versioned<T> | undefined>;
  resolve(found: Versioned<T> | undefined): void;
  reject(error: unknown): void;
}

/** Rows of one table by id, in one statement per batch of reads; the record is sent only when `held` is not it. */
export class CheckedReads<T> {
  private waiting = new Map<string, Waiting<T>>();
  private running = false;
  private readonly sql: string;

  constructor(
    private readonly db: Database,
    table: string,
  ) {
    this.sql = `SELECT t.id, t.xmin::text AS version,
        CASE WHEN t.xmin::text = k.version THEN NULL ELSE t.record::text END AS record
      FROM unnest($1::text[], $2::text[]) AS k (id, version) JOIN ${table} t ON t.id = k.id COLLATE "C"`;
  }

  /** The row `id` now: `held` when it is still the row's version, else the row read back; undefined when none. */
  read(id: string, held: Versioned<T> | undefined): Promise<Versioned<T> | undefined> {
    let waiting = this.waiting.get(id);
    if (waiting === undefined) {
      let resolve!: Waiting<T>['resolve'];
      let reject!: Waiting<T>['reject'];
      const answer = new Promise<Versioned<T> | undefined>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      waiting = { held, answer, resolve, reject };
      this.waiting.set(id, waiting);
    }
    if (!this.running) void this.run();
    return waiting.answer;
  }

  /** Sends the waiting reads, one statement at a time, until none is left. */
  private async run(): Promise<void> {
    this.running = true;
    while (this.waiting.size > 0) {
      const batch = this.waiting;
      this.waiting = new Map();
      const ids = [...batch.keys()];
      const versions = ids.map((id) => batch.get(id)?.held?.version ?? null);
      try {
        const rows = await this.db.query<{ id: string; version: string; record: string | null }>(this.sql, [
          ids,
          versions,
        ]);
        const found = new Map(rows.map((row) => [row.id, row]));
        for (const [id, waiting] of batch) {
          const row = found.get(id);
          if (row === undefined) waiting.resolve(undefined);
          else if (row.record === null) waiting.resolve(waiting.held);
          else waiting.resolve({ record: deepFreeze(fromJsonColumn<T>(row.record)), version: row.version });
        }
      } catch (error) {
        for (const waiting of batch.values()) waiting.reject(error);
      }
    }
    this.running = false;
  }
}
