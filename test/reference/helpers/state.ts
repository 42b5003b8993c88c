/**
 * The database of an in-process server, as `CASI_TEST_DATABASE` asks: `memory` (the default), `embedded` (a fresh
 * embedded database in a temporary folder) or `postgres` (a fresh database in the run's throwaway cluster). The
 * server opens it the way `casi serve` does (`openState`); the database code is loaded only when one is asked for.
 */
import { rmSync } from 'node:fs';
import { inject } from 'vitest';

/** The values `CASI_TEST_DATABASE` takes. */
export const TEST_DATABASE_KINDS = ['memory', 'embedded', 'postgres'] as const;

export type TestDatabaseKind = (typeof TEST_DATABASE_KINDS)[number];

/** A database made for one server: its `CASI_DATABASE_URL`, and how to delete it once the server has closed. */
export interface TestDatabase {
  readonly url: string;
  remove(): Promise<void>;
}

/** The kind `CASI_TEST_DATABASE` names; throws naming the variable for any other value. */
export function testDatabaseKind(env: NodeJS.ProcessEnv = process.env): TestDatabaseKind {
  const value = env.CASI_TEST_DATABASE ?? 'memory';
  const kind = TEST_DATABASE_KINDS.find((known) => known === value);
  if (kind === undefined) {
    throw new Error(`CASI_TEST_DATABASE must be memory, embedded or postgres, not ${JSON.stringify(value)}`);
  }
  return kind;
}

/** A new database of the kind `CASI_TEST_DATABASE` names, migrated; `memory:` for `memory`. */
export async function testDatabase(): Promise<TestDatabase> {
  const kind = testDatabaseKind();
  if (kind === 'memory') return { url: 'memory:', remove: async () => undefined };
  if (kind === 'embedded') {
    const folder = await (await import('./database.js')).migratedFolder();
    return { url: `file:${folder}`, remove: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const cluster = inject('postgresCluster');
  if (cluster === undefined) throw new Error('CASI_TEST_DATABASE=postgres: the global setup started no cluster');
  const { createDatabase } = await import('../../database/postgres-cluster.js');
  return createDatabase(cluster);
}
