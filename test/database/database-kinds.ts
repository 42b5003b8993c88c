/** The databases a `casi serve` test runs on: the embedded one (a folder of the test) and a throwaway PostgreSQL. */
import { join } from 'node:path';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster.js';

/** One kind of database: started before its tests, the `CASI_DATABASE_URL` for a working folder, stopped after. */
export interface DatabaseKind {
  readonly kind: 'embedded' | 'PostgreSQL';
  start(): Promise<void>;
  url(cwd: string): string;
  stop(): Promise<void>;
}

/** The embedded database, then PostgreSQL (a cluster of its own, started by `start`). */
export function databaseKinds(): DatabaseKind[] {
  let cluster: PostgresCluster | undefined;
  return [
    {
      kind: 'embedded',
      start: async () => undefined,
      url: (cwd) => `file:${join(cwd, 'state')}`,
      stop: async () => undefined,
    },
    {
      kind: 'PostgreSQL',
      start: async () => {
        cluster = await startPostgresCluster();
      },
      url: () => cluster?.url ?? '',
      stop: async () => {
        await cluster?.stop();
        cluster = undefined;
      },
    },
  ];
}
