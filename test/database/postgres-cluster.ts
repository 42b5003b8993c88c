/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder, `pg_ctl` listening on 127.0.0.1 on a
 * free port (no Unix socket outside that folder), trust authentication, stopped and deleted after. Its default
 * collation is ICU's en-US, as on most servers, where `a` sorts before `B`: code relying on byte order fails here.
 * Run as root, the server runs as the `postgres` user (initdb refuses root). Servers under test each get a database
 * of their own, copied from a migrated template.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../reference/database/migrations.js';
import { openPostgres } from '../../reference/database/postgres.js';

/** A running cluster and the URL of its `postgres` database. */
export interface PostgresCluster {
  readonly url: string;
  stop(): Promise<void>;
}

/** The folder holding `initdb` and `pg_ctl`: on PATH, else Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresBinaries(): string {
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl'))) return folder;
  }
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const folder = join(debian, version, 'bin');
    if (existsSync(join(folder, 'initdb'))) return folder;
  }
  throw new Error(
    'PostgreSQL is not installed: initdb and pg_ctl are neither on PATH nor in /usr/lib/postgresql/<version>/bin ' +
      '(Debian: apt-get install postgresql; .ci/run does it)',
  );
}

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Initialises and starts a cluster; rejects with PostgreSQL's own message when it cannot. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'casi-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const full = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    execFileSync(command, full, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(folder, 'data');
  const port = await freePort();
  const locale = ['-E', 'UTF8', '--locale-provider=icu', '--icu-locale=en-US'];
  run('initdb', ['-D', data, '-U', 'casi', '--auth=trust', ...locale, '--no-instructions']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${folder}`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'log'), '-w', 'start']);
  return {
    url: `postgres://casi@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** The migrated database of a cluster that `createDatabase` copies. */
const TEMPLATE_DATABASE = 'casi_migrated';

/** The URL of database `name` in the cluster at `url`. */
function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

/** Runs `sql` on the cluster's `postgres` database, on a connection of its own. */
async function administer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates the cluster's migrated template database, closed again (a database is copied only while unused). */
export async function createMigratedTemplate(url: string): Promise<void> {
  await administer(url, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const db = await openPostgres(databaseUrl(url, TEMPLATE_DATABASE));
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

/** A new database in the cluster at `url`, a copy of its migrated template; `remove` drops it. */
export async function createDatabase(url: string): Promise<{ url: string; remove(): Promise<void> }> {
  const name = `casi_${randomBytes(8).toString('hex')}`;
  await administer(url, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  return {
    url: databaseUrl(url, name),
    remove: () => administer(url, `DROP DATABASE ${name} WITH (FORCE)`),
  };
}
