/** A throwaway embedded database (PGlite in a temporary folder), migrated, for tests of the SQL store and bus. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded } from '../../../reference/database/embedded.js';
import { migrate } from '../../../reference/database/migrations.js';
import type { Database } from '../../../reference/database/types.js';

/** An open, migrated embedded database in a temporary folder of its own. */
export interface TestDatabase {
  readonly db: Database;
  readonly folder: string;
  /** Closes the database and opens its folder again: what a restarted process sees. */
  reopen(): Promise<Database>;
  /** Closes the database and deletes its folder. */
  remove(): Promise<void>;
}

/** Opens a fresh embedded database in a new temporary folder. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'casi-db-'));
  let db = await openEmbedded(folder);
  await migrate(db);
  return {
    get db() {
      return db;
    },
    folder,
    async reopen() {
      await db.close();
      db = await openEmbedded(folder);
      return db;
    },
    async remove() {
      await db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
