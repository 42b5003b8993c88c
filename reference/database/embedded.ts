/** The embedded database: PostgreSQL compiled to WebAssembly (PGlite), kept in a folder, in this process. */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, SqlValue } from './types.js';

/**
 * The embedded database's buffer pool: PostgreSQL's default (128 MB) lives in this process's memory, and fills as
 * the database grows; the operating system's file cache still keeps what is read often.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

/** Opens (creating it on first use) the embedded database in `folder`. */
export async function openEmbedded(folder: string): Promise<Database> {
  mkdirSync(folder, { recursive: true });
  const db = await PGlite.create(folder, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  const database: Database = {
    async query<R extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await db.query<R>(sql, [...params])).rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    // One process, one connection: a session is the database itself.
    session: (task) => task(database),
    close: () => db.close(),
  };
  return database;
}
