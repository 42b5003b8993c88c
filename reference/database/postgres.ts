/** PostgreSQL through a `pg` connection pool. */
import pg from 'pg';
import type { Database, SqlValue } from './types.js';

/** Connections the pool opens at most. */
const POOL_SIZE = 10;

/** Connects to the PostgreSQL server at `url`; fails when it cannot be reached. */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // Idle connections that fail (the server restarted) are dropped by the pool; the error must not crash the process.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  client.release();
  return {
    async query<R extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await pool.query<R & pg.QueryResultRow>(sql, [...params])).rows;
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
