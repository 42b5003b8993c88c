/**
 * The database a test file's services run on, as `CASI_TEST_DATABASE` names it: none in memory; else one fresh
 * database per file, opened before its tests and emptied after each (cheaper than a database per test).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { database as databaseSetting } from '../../../reference/config.js';
import { openDatabase } from '../../../reference/database/open.js';
import type { Database } from '../../../reference/database/types.js';
import { type TestDatabase, testDatabase, testDatabaseKind } from './state.js';

/** Registers the hooks of the file's database; the function returns it (null in memory) once `beforeAll` ran. */
export function useFileDatabase(): () => Database | null {
  if (testDatabaseKind() === 'memory') return () => null;
  let made: TestDatabase | undefined;
  let db: Database | null = null;
  beforeAll(async () => {
    made = await testDatabase();
    db = await openDatabase(databaseSetting({ CASI_DATABASE_URL: made.url }));
  });
  afterEach(async () => {
    const tables = await db?.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
    );
    if (tables !== undefined && tables.length > 0) {
      await db?.exec(`TRUNCATE ${tables.map((table) => table.name).join(', ')}`);
    }
  });
  afterAll(async () => {
    await db?.close();
    await made?.remove();
  });
  return () => db;
}
