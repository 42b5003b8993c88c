/** Schema migrations: applied once each, in version order, recorded; a failing one is rolled back and named. */
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../reference/database/migrations.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase | undefined;

afterEach(async () => {
  await database?.remove();
  database = undefined;
});

describe('migrate', () => {
  it('applies each migration once, in version order, and records it in schema_migrations', async () => {
    database = await openTestDatabase();
    const { db } = database;
    const recorded = async () =>
      (await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map(
        (row) => row.version,
      );
    expect(await recorded()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
    const last = MIGRATIONS.length;
    const next = [
      { version: last + 2, name: 'second', sql: 'INSERT INTO steps VALUES (3)' },
      { version: last + 1, name: 'first', sql: 'CREATE TABLE steps (n integer)' },
    ];
    expect(await migrate(db, [...MIGRATIONS, ...next])).toEqual([last + 1, last + 2]);
    expect(await migrate(db, [...MIGRATIONS, ...next])).toEqual([]);
    expect(await db.query('SELECT n FROM steps')).toEqual([{ n: 3 }]);
    expect(await recorded()).toEqual([...MIGRATIONS.map((m) => m.version), last + 1, last + 2]);
  }, 60_000);

  it('rolls a failing migration back whole and names it; the next start retries it', async () => {
    database = await openTestDatabase();
    const { db } = database;
    const broken = {
      version: MIGRATIONS.length + 1,
      name: 'half done',
      sql: 'CREATE TABLE half (n integer); SELECT missing_column FROM half',
    };
    await expect(migrate(db, [...MIGRATIONS, broken])).rejects.toThrow(
      new RegExp(`^migration ${broken.version} \\(half done\\) failed: `),
    );
    expect(await db.query("SELECT to_regclass('half') AS half")).toEqual([{ half: null }]);
    const fixed = { ...broken, sql: 'CREATE TABLE half (n integer)' };
    expect(await migrate(db, [...MIGRATIONS, fixed])).toEqual([broken.version]);
  }, 60_000);
});
