/** Opens the database `CASI_DATABASE_URL` names and brings its schema up to date. */
import { type DatabaseSetting, redact } from '../config.js';
import { migrate } from './migrations.js';
import type { Database } from './types.js';

/** The database of `setting` (null for `memory:`), migrated; rejects when it cannot be opened or migrated. */
export async function openDatabase(setting: DatabaseSetting): Promise<Database | null> {
  if (setting.kind === 'memory') return null;
  // Each driver is loaded only when used: `memory:` loads neither.
  const db =
    setting.kind === 'embedded'
      ? await (await import('./embedded.js')).openEmbedded(setting.path)
      : await (await import('./postgres.js')).openPostgres(setting.url);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/** Where the state is kept, as the start-up lines print it (a URL without its password). */
export function describeDatabase(setting: DatabaseSetting): string {
  if (setting.kind === 'memory') return 'memory only (lost when the server stops)';
  if (setting.kind === 'embedded') return `embedded, in ${setting.path}`;
  return `PostgreSQL at ${redact(setting.url)}`;
}
