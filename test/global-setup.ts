/**
 * Before any test: compiles the toolkit to dist/, which the tests that run the `casi` command use; names the folder
 * where the first test that needs an embedded database leaves a migrated one for the others to copy; and, with
 * `CASI_TEST_DATABASE=postgres`, starts the throwaway PostgreSQL cluster the in-process servers get databases in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildToolkit } from '../scripts/build.js';
import { testDatabaseKind } from './reference/helpers/state.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the migrated embedded database of this run is, once a test has made it (test/reference/helpers). */
    databaseTemplate: string;
    /** The URL of the run's PostgreSQL cluster (`CASI_TEST_DATABASE=postgres` only), holding a migrated template. */
    postgresCluster?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = testDatabaseKind({ ...process.env, ...project.config.env });
  await buildToolkit();
  const folder = mkdtempSync(join(tmpdir(), 'casi-db-template-'));
  project.provide('databaseTemplate', join(folder, 'migrated'));
  const cluster = kind === 'postgres' ? await startClusterWithTemplate() : undefined;
  if (cluster !== undefined) project.provide('postgresCluster', cluster.url);
  return async () => {
    await cluster?.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}

/** A cluster with its migrated template database; stopped again if the template cannot be made. */
async function startClusterWithTemplate() {
  const { startPostgresCluster, createMigratedTemplate } = await import('./database/postgres-cluster.js');
  const cluster = await startPostgresCluster();
  try {
    await createMigratedTemplate(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
