/**
 * The schema, as an ordered list of migrations run at start-up: each runs once, in one transaction, and is recorded
 * in `schema_migrations`. Never change a migration once released; add the next one.
 */
import type { Database } from './types.js';

/** One step of the schema. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The tables of the store's collections (see `store/sql.ts`). */
export const COLLECTION_TABLES = [
  'conversational_agents',
  'procedural_agents',
  'conversations',
  'procedures',
  'customers',
  'tokens',
] as const;

/** A table of a store collection; `COLLATE "C"` orders ids and timestamps as JavaScript compares strings. */
export function collectionTable(name: string): string {
  return `CREATE TABLE ${name} (
    id text COLLATE "C" PRIMARY KEY,
    created_at text COLLATE "C" NOT NULL,
    record jsonb NOT NULL
  );
  CREATE INDEX ${name}_position ON ${name} (created_at, id);`;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'store collections, event logs and settings',
    sql: [
      ...COLLECTION_TABLES.map(collectionTable),
      `CREATE TABLE event_log (
        conversation_id text NOT NULL,
        position integer NOT NULL,
        id text NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (conversation_id, position)
      )`,
      `CREATE TABLE event_marks (
        conversation_id text NOT NULL,
        id text NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (conversation_id, id)
      )`,
      'CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL)',
    ].join(';\n'),
  },
  {
    version: 2,
    name: 'tokens stored as their SHA-256',
    // The tokens issued before: their records and the conversations' current token, keyed by the hash from now on.
    sql: `UPDATE tokens SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex'),
        record = jsonb_set(record, '{id}', to_jsonb(encode(sha256(convert_to(id, 'UTF8')), 'hex')))
        WHERE id LIKE 'ct\\_%';
      UPDATE conversations
        SET record = jsonb_set(record, '{token}', to_jsonb(encode(sha256(convert_to(record ->> 'token', 'UTF8')), 'hex')))
        WHERE record ->> 'token' LIKE 'ct\\_%'`,
  },
  {
    version: 3,
    name: 'event log heads',
    // The next position of each log, whether it ended and when: appends take their position from here, so that
    // processes sharing the database number one log together; retention deletes the logs ended long enough ago.
    // Marks get their order of making, so that only the newest are kept.
    sql: `CREATE TABLE event_heads (
        conversation_id text PRIMARY KEY,
        next_position integer NOT NULL,
        ended boolean NOT NULL,
        ended_at text COLLATE "C",
        purged boolean NOT NULL DEFAULT false
      );
      CREATE INDEX event_heads_due ON event_heads (ended_at) WHERE ended AND NOT purged;
      ALTER TABLE event_marks ADD COLUMN seq bigserial;
      INSERT INTO event_heads (conversation_id, next_position, ended, ended_at)
        SELECT conversation_id, max(position) + 1,
          bool_or(event -> 'payload' ->> 'type' = 'conversation.ended'),
          max(CASE WHEN event -> 'payload' ->> 'type' = 'conversation.ended' THEN event ->> 'created_at' END)
        FROM event_log GROUP BY conversation_id`,
  },
  {
    version: 4,
    name: 'durable timers',
    // Timers a process may resume from their name (a call's steps, a procedure's): due time in ms since the epoch.
    sql: 'CREATE TABLE timers (name text PRIMARY KEY, due_at bigint NOT NULL)',
  },
  {
    version: 5,
    name: 'timer leases',
    // A claimed timer's row is leased (until this time, ms since the epoch) rather than deleted, and deleted once its
    // task has run: a claimer that dies leaves it to be claimed again when the lease is over. 0: not leased.
    sql: 'ALTER TABLE timers ADD COLUMN claimed_until bigint NOT NULL DEFAULT 0',
  },
];

/** The advisory lock held while migrating: processes starting together on one database migrate one at a time. */
const MIGRATION_LOCK = 7_347_001;

/**
 * Applies the migrations `db` has not run yet, in order, holding an advisory lock (a second process starting at
 * the same time waits, then finds them applied); returns the versions applied.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.session(async (connection) => {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return await migrateLocked(connection, migrations);
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}

async function migrateLocked(db: Database, migrations: readonly Migration[]): Promise<number[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
  );
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const done = new Set(rows.map((row) => row.version));
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    const record = `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, ${quote(migration.name)}, ${quote(new Date().toISOString())})`;
    try {
      await db.exec(`BEGIN;\n${migration.sql};\n${record};\nCOMMIT;`);
    } catch (error) {
      await db.exec('ROLLBACK').catch(() => undefined);
      throw new Error(`migration ${migration.version} (${migration.name}) failed: ${String(error)}`);
    }
    applied.push(migration.version);
  }
  return applied;
}

/** A string literal of SQL. */
function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
