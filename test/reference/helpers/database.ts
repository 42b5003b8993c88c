/** A throwaway embedded database (PGlite in a temporary folder), migrated, for tests of the SQL store and bus. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded } from '../../../reference/database/embedded.js';
import { migrate } from '../../../reference/database/migrations.js';
import type { Database } from '../../../reference/database/types.js';

/** An open, migrated embedded database and its folder; `remove()` closes it and deletes the folder. */
export interface TestDatabase {
  readonly db: Database;
  readonly folder: string;
  remove(): Promise<void>;
}

/** Opens a fresh embedded database in a new temporary folder. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'casi-db-'));
  const db = await openEmbedded(folder);
  await migrate(db);
  return {
    db,
    folder,
    async remove() {
      await db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
