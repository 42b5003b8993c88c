/**
 * Before any test: compiles the toolkit to dist/, which the tests that run the `casi` command use; and names the
 * folder where the first test that needs an embedded database leaves a migrated one for the others to copy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildToolkit } from '../scripts/build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the migrated embedded database of this run is, once a test has made it (test/reference/helpers). */
    databaseTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  await buildToolkit();
  const folder = mkdtempSync(join(tmpdir(), 'casi-db-template-'));
  project.provide('databaseTemplate', join(folder, 'migrated'));
  return () => rmSync(folder, { recursive: true, force: true });
}
