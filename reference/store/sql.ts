/**
 * The store in SQL (the embedded database or PostgreSQL): one table per collection, `(id, created_at, record
 * jsonb)`. `list` translates the `ListQuery` into one statement. Records read back are new objects, frozen deeply
 * like the memory store's.
 */

import { fromJsonColumn, toJsonColumn } from '../database/json-column.js';
import type { Database, SqlValue } from '../database/types.js';
import { deepFreeze } from '../freeze.js';
import { CheckedReads, type Versioned } from './checked-reads.js';
import type { AgentRecord } from './records.js';
import type { Collection, ListQuery, Store, StoredRecord } from './types.js';

/** Records each collection of a cached store keeps in memory: the most recently used ones. */
export const CACHED_RECORDS = 10_000;

/**
 * Whether a collection's `get` may answer from the records it read or wrote last: `owned` when only this process
 * writes the database (the embedded one), so they are current; `checked` when other processes may write it too
 * (PostgreSQL), so each is answered only once the database confirmed it is the row's current version (see
 * `CheckedReads`): a read sees every write acknowledged before it, on any instance, as without a cache.
 */
export type CacheMode = 'owned' | 'checked';

/**
 * A collection kept in `table` (created by the migrations). With a `mode`, `get` answers from the `cacheSize` most
 * recently used records (written through on `put` and `delete`), as `CacheMode` says.
 */
export class SqlCollection<T extends StoredRecord> implements Collection<T> {
  private readonly cache = new Map<string, Versioned<T>>();
  private readonly checked: CheckedReads<T> | null;

  constructor(
    private readonly db: Database,
    private readonly table: string,
    private readonly mode: CacheMode | null = null,
    private readonly cacheSize = CACHED_RECORDS,
  ) {
    this.checked = mode === 'checked' ? new CheckedReads(db, table) : null;
  }

  async get(id: string): Promise<T | undefined> {
    if (this.checked !== null) {
      const found = await this.checked.read(id, this.cache.get(id));
      if (found === undefined) this.cache.delete(id);
      return found === undefined ? undefined : this.keep(found);
    }
    const kept = this.cache.get(id);
    if (kept !== undefined) return this.keep(kept);
    const rows = await this.db.query<{ record: string }>(
      `SELECT record::text AS record FROM ${this.table} WHERE id = $1`,
      [id],
    );
    if (rows[0] === undefined) return undefined;
    return this.keep({ record: deepFreeze(fromJsonColumn<T>(rows[0].record)), version: '' });
  }

  async put(record: T): Promise<void> {
    this.cache.delete(record.id);
    const [row] = await this.db.query<{ version: string }>(
      `INSERT INTO ${this.table} (id, created_at, record) VALUES ($1, $2, $3::text::jsonb)
       ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, record = excluded.record
       RETURNING xmin::text AS version`,
      [record.id, record.created_at, toJsonColumn(record)],
    );
    this.keep({ record: deepFreeze(record), version: row?.version ?? '' });
  }

  async delete(id: string): Promise<boolean> {
    this.cache.delete(id);
    const rows = await this.db.query(`DELETE FROM ${this.table} WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  /** Keeps `found` as the most recently used (with a cache), forgetting the least recently used past `cacheSize`. */
  private keep(found: Versioned<T>): T {
    const { cache } = this;
    if (this.mode === null) return found.record;
    cache.delete(found.record.id);
    cache.set(found.record.id, found);
    if (cache.size > this.cacheSize) cache.delete(cache.keys().next().value as string);
    return found.record;
  }

  async list(query: ListQuery<T>): Promise<T[]> {
    const { sql, params } = listStatement(this.table, query);
    const rows = await this.db.query<{ record: string }>(sql, params);
    return rows.map((row) => deepFreeze(fromJsonColumn<T>(row.record)));
  }
}

/** The SELECT of a list query: equality on members, half-open ranges, keyset position, order and limit. */
export function listStatement<T>(table: string, query: ListQuery<T>): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const bind = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions: string[] = [];
  for (const [field, value] of Object.entries(query.where ?? {})) {
    if (value === undefined) continue;
    conditions.push(`record -> ${bind(field)} = ${bind(toJsonColumn(value))}::text::jsonb`);
  }
  for (const range of query.ranges ?? []) {
    const field = bind(range.field);
    conditions.push(`jsonb_typeof(record -> ${field}) = 'string'`);
    const member = `(record ->> ${field}) COLLATE "C"`;
    if (range.gte !== undefined) conditions.push(`${member} >= ${bind(range.gte)}`);
    if (range.lt !== undefined) conditions.push(`${member} < ${bind(range.lt)}`);
  }
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  if (query.after !== undefined) {
    const beyond = query.order === 'asc' ? '>' : '<';
    conditions.push(`(created_at, id) ${beyond} (${bind(query.after.created_at)}, ${bind(query.after.id)})`);
  }
  const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  const limit = query.limit === undefined ? '' : ` LIMIT ${bind(query.limit)}`;
  return {
    sql: `SELECT record::text AS record FROM ${table}${where} ORDER BY created_at ${direction}, id ${direction}${limit}`,
    params,
  };
}

/** The store kept in `db` (migrated: see `database/migrations.ts`), with records cached as `cache` says. */
export function createSqlStore(db: Database, cache: CacheMode | null = null): Store {
  return {
    conversationalAgents: new SqlCollection<AgentRecord<'conversational'>>(db, 'conversational_agents', cache),
    proceduralAgents: new SqlCollection<AgentRecord<'procedural'>>(db, 'procedural_agents', cache),
    conversations: new SqlCollection(db, 'conversations', cache),
    procedures: new SqlCollection(db, 'procedures', cache),
    customers: new SqlCollection(db, 'customers', cache),
    tokens: new SqlCollection(db, 'tokens', cache),
  };
}
