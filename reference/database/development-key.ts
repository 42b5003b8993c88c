/** The generated development key (`CASI_API_KEYS` unset), kept in the database so a restart keeps its data visible. */
import type { ApiKey } from '../config.js';
import type { Database } from './types.js';

const SETTING = 'development_key';

/** The key stored by an earlier start, or `fresh` once stored (the first start on this database). */
export async function keptDevelopmentKey(db: Database, fresh: ApiKey): Promise<ApiKey> {
  await db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    SETTING,
    JSON.stringify(fresh),
  ]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [SETTING]);
  return row === undefined ? fresh : (JSON.parse(row.value) as ApiKey);
}
