/**
 * The state of an in-process server: in memory, or with `CASI_TEST_DATABASE=embedded` on a fresh embedded database,
 * so that whole suites can run on the SQL store and the durable bus (the database code is loaded only then).
 */
import type { EventLimits } from '../../../reference/bus/memory.js';
import type { EventBus } from '../../../reference/bus/types.js';
import type { Store } from '../../../reference/store/types.js';

/** A service's store and bus (none: in memory), and how to drop them after the test. */
export interface TestState {
  readonly service: { store?: Store; bus?: EventBus };
  remove(): Promise<void>;
}

/** The kind `CASI_TEST_DATABASE` asks for: `memory` (the default) or `embedded`. */
function testDatabaseKind(): string {
  return process.env.CASI_TEST_DATABASE ?? 'memory';
}

/**
 * The environment that tells `loadConfig` the state `testState` makes: `memory:` in memory (without it the
 * configuration describes the embedded database, and memory would take a database's event limits).
 */
export function testDatabaseEnv(): Record<string, string> {
  return testDatabaseKind() === 'memory' ? { CASI_DATABASE_URL: 'memory:' } : {};
}

/** The state `CASI_TEST_DATABASE` asks for: `memory` (the default) or `embedded`. */
export async function testState(limits: EventLimits): Promise<TestState> {
  const kind = testDatabaseKind();
  if (kind === 'memory') return { service: {}, remove: async () => undefined };
  if (kind !== 'embedded')
    throw new Error(`CASI_TEST_DATABASE must be memory or embedded, not ${JSON.stringify(kind)}`);
  const { openTestDatabase } = await import('./database.js');
  const { createSqlStore } = await import('../../../reference/store/sql.js');
  const { DurableEventBus } = await import('../../../reference/bus/durable.js');
  const database = await openTestDatabase();
  return {
    service: { store: createSqlStore(database.db), bus: new DurableEventBus(database.db, limits) },
    remove: () => database.remove(),
  };
}
