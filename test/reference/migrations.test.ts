/** Schema migrations: applied once each, in version order, recorded; a failing one is rolled back and named. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../reference/database/embedded.js';
import { MIGRATIONS, migrate } from '../../reference/database/migrations.js';
import { tokenId } from '../../reference/tokens.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase | undefined;
const folders: string[] = [];

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

  it('migration 2 keys the tokens issued before it, and the conversations naming them, by their SHA-256', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'casi-db-'));
    folders.push(folder);
    const db = await openEmbedded(folder);
    try {
      await migrate(db, MIGRATIONS.slice(0, 1));
      const token = 'ct_before_hashing';
      await db.query("INSERT INTO tokens VALUES ($1, 'x', $2::text::jsonb)", [token, JSON.stringify({ id: token })]);
      await db.query("INSERT INTO conversations VALUES ('conv_1', 'x', $1::text::jsonb)", [JSON.stringify({ token })]);
      await migrate(db);
      expect(await db.query('SELECT id, record FROM tokens')).toEqual([
        { id: tokenId(token), record: { id: tokenId(token) } },
      ]);
      expect(await db.query('SELECT record FROM conversations')).toEqual([{ record: { token: tokenId(token) } }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
