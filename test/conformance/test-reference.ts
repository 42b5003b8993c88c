/** The in-process reference server of the conformance tests, on a fresh database of the kind `CASI_TEST_DATABASE` names. */
import { type ReferenceTargetOptions, startReference, type Target } from '../../conformance/target.js';
import { testDatabase } from '../reference/helpers/state.js';

/** `startReference` on a new test database (memory by default); closing the target deletes the database. */
export async function startTestReference(options: ReferenceTargetOptions = {}): Promise<Target> {
  const database = await testDatabase();
  const target = await startReference({ ...options, env: { CASI_DATABASE_URL: database.url, ...options.env } });
  return {
    ...target,
    close: async () => {
      await target.close();
      await database.remove();
    },
  };
}
