/**
 * What a reference server runs on for its `CASI_DATABASE_URL`: nothing extra in memory; on a database, its store,
 * durable bus and timer rows, with locks and notices when several processes may share it (PostgreSQL).
 */

import { DurableEventBus } from './bus/durable.js';
import type { EventLimits } from './bus/memory.js';
import type { ApiKey, LoadedConfig, ReferenceConfig } from './config.js';
import { keptDevelopmentKey } from './database/development-key.js';
import { DatabaseLocks } from './database/locks.js';
import { databaseNotices } from './database/notices.js';
import { describeDatabase, openDatabase } from './database/open.js';
import { DatabaseTimerRows } from './database/timer-rows.js';
import type { Database } from './database/types.js';
import type { ReferenceServiceOptions } from './service.js';
import { createSqlStore } from './store/sql.js';

/** The configuration (with the kept development key), the database, and the service's store, bus and timers. */
export interface ServiceState {
  readonly config: ReferenceConfig;
  readonly developmentKey: ApiKey | null;
  readonly db: Database | null;
  readonly service: Pick<ReferenceServiceOptions, 'store' | 'bus' | 'locks' | 'notices' | 'timerRows'>;
  /** Starts following the other processes on the same database (PostgreSQL); call before serving. */
  listen(): Promise<void>;
  /** Closes the database; call after the server has closed. */
  close(): Promise<void>;
}

/** The database of `CASI_DATABASE_URL` cannot be opened or migrated; the message names it and says why. */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

/** Opens the database of the configuration (none for `memory:`); rejects with `DatabaseOpenError` when it cannot. */
export async function openState({ config, generatedKey }: LoadedConfig): Promise<ServiceState> {
  let db: Database | null;
  try {
    db = await openDatabase(config.database);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseOpenError(
      `CASI_DATABASE_URL: cannot open the database (${describeDatabase(config.database)}): ${reason}`,
    );
  }
  if (db === null) {
    const none = async () => undefined;
    return { config, developmentKey: generatedKey, db, service: {}, listen: none, close: none };
  }
  const open = db;
  const developmentKey = generatedKey === null ? null : await keptDevelopmentKey(open, generatedKey);
  return {
    ...databaseState(open, config.eventLimits),
    config: developmentKey === null ? config : { ...config, apiKeys: [developmentKey] },
    developmentKey,
    db: open,
    close: () => open.close(),
  };
}

/** The service's store, bus and timers on an open, migrated database, and how to start following other processes. */
export function databaseState(db: Database, eventLimits: EventLimits): Pick<ServiceState, 'service' | 'listen'> {
  const bus = new DurableEventBus(db, eventLimits);
  const notices = databaseNotices(db);
  return {
    // Several processes may share PostgreSQL: locks and notices reach them all. The embedded database has one.
    service: {
      // Only this process writes to the embedded database: its records are read from memory. On PostgreSQL other
      // instances write too: a record held in memory is answered once the database confirms it is still current.
      store: createSqlStore(db, notices === null ? 'owned' : 'checked'),
      bus,
      // A call's steps and procedures are kept as rows: resumed after a restart, fired once across instances.
      timerRows: new DatabaseTimerRows(db),
      ...(notices === null ? {} : { notices, locks: new DatabaseLocks(db) }),
    },
    listen: () => bus.listen(),
  };
}
