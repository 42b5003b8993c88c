/** A throwaway embedded database (PGlite in a temporary folder), migrated, for tests of the SQL store and bus. */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
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

/**
 * The folder of a new, migrated, closed embedded database, made once per run (creating one costs several times what
 * copying it does): the first caller makes it beside its final name and renames it there, so that a test file in
 * another worker sees it whole or not at all; a caller that loses that race drops its own.
 */
async function migratedTemplate(): Promise<string> {
  const template = inject('databaseTemplate');
  if (existsSync(template)) return template;
  const folder = mkdtempSync(`${template}-`);
  const db = await openEmbedded(folder);
  await migrate(db);
  await db.close();
  try {
    renameSync(folder, template);
  } catch {
    rmSync(folder, { recursive: true, force: true });
  }
  return template;
}

/** A new temporary folder holding a copy of the run's migrated embedded database (closed). */
export async function migratedFolder(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'casi-db-'));
  cpSync(await migratedTemplate(), folder, { recursive: true });
  return folder;
}

/** Opens a fresh embedded database in a new temporary folder: a copy of the run's migrated one. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const folder = await migratedFolder();
  let db = await openEmbedded(folder);
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
