/**
 * The store in SQL (the embedded database or PostgreSQL): one table per collection, `(id, created_at, record
 * jsonb)`. `list` translates the `ListQuery` into one statement. Records read back are new objects, frozen deeply
 * like the memory store's.
 */
import type { Database, SqlValue } from '../database/types.js';
import { deepFreeze } from '../freeze.js';
import type { AgentRecord } from './records.js';
import type { Collection, ListQuery, Store, StoredRecord } from './types.js';

/** Records each collection of a `cached` store keeps in memory: the most recently used ones. */
export const CACHED_RECORDS = 10_000;

/**
 * A collection kept in `table` (created by the migrations). With a `cacheSize` (a database only this process
 * writes: the embedded one) `get` answers from that many most recently used records, written through on `put` and
 * `delete`.
 */
export class SqlCollection<T extends StoredRecord> implements Collection<T> {
  private readonly cache: Map<string, T> | null;

  constructor(
    private readonly db: Database,
    private readonly table: string,
    private readonly cacheSize = 0,
  ) {
    this.cache = cacheSize > 0 ? new Map() : null;
  }

  async get(id: string): Promise<T | undefined> {
    const kept = this.cache?.get(id);
    if (kept !== undefined) return this.keep(kept);
    const rows = await this.db.query<{ record: T }>(`SELECT record FROM ${this.table} WHERE id = $1`, [id]);
    if (rows[0] === undefined) return undefined;
    return this.keep(deepFreeze(rows[0].record));
  }

  async put(record: T): Promise<void> {
    this.cache?.delete(record.id);
    await this.db.query(
      `INSERT INTO ${this.table} (id, created_at, record) VALUES ($1, $2, $3::text::jsonb)
       ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, record = excluded.record`,
      [record.id, record.created_at, JSON.stringify(record)],
    );
    this.keep(deepFreeze(record));
  }

  async delete(id: string): Promise<boolean> {
    this.cache?.delete(id);
    const rows = await this.db.query(`DELETE FROM ${this.table} WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  /** Keeps `record` as the most recently used, forgetting the least recently used past `cacheSize`. */
  private keep(record: T): T {
    const { cache } = this;
    if (cache === null) return record;
    cache.delete(record.id);
    cache.set(record.id, record);
    if (cache.size > this.cacheSize) cache.delete(cache.keys().next().value as string);
    return record;
  }

  async list(query: ListQuery<T>): Promise<T[]> {
    const { sql, params } = listStatement(this.table, query);
    const rows = await this.db.query<{ record: T }>(sql, params);
    return rows.map((row) => deepFreeze(row.record));
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
    conditions.push(`record -> ${bind(field)} = ${bind(JSON.stringify(value))}::text::jsonb`);
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
    sql: `SELECT record FROM ${table}${where} ORDER BY created_at ${direction}, id ${direction}${limit}`,
    params,
  };
}

/**
 * The store kept in `db` (migrated: see `database/migrations.ts`); `cached` when no other process writes to `db`
 * (see `SqlCollection`).
 */
export function createSqlStore(db: Database, cached = false): Store {
  const size = cached ? CACHED_RECORDS : 0;
  return {
    conversationalAgents: new SqlCollection<AgentRecord<'conversational'>>(db, 'conversational_agents', size),
    proceduralAgents: new SqlCollection<AgentRecord<'procedural'>>(db, 'procedural_agents', size),
    conversations: new SqlCollection(db, 'conversations', size),
    procedures: new SqlCollection(db, 'procedures', size),
    customers: new SqlCollection(db, 'customers', size),
    tokens: new SqlCollection(db, 'tokens', size),
  };
}
