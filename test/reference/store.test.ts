/**
 * The collections of the store, in memory and in SQL (the embedded database, and PostgreSQL with a linguistic
 * default collation): frozen records; the list query (filters, ranges, order, keyset) with the same answers in all;
 * views per record.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionTable } from '../../reference/database/migrations.js';
import { openPostgres } from '../../reference/database/postgres.js';
import type { Database, SqlValue } from '../../reference/database/types.js';
import { viewPerRecord } from '../../reference/freeze.js';
import { MemoryCollection } from '../../reference/store/memory.js';
import { type CacheMode, SqlCollection } from '../../reference/store/sql.js';
import type { Collection, ListQuery } from '../../reference/store/types.js';
import { type PostgresCluster, startPostgresCluster } from '../database/postgres-cluster.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

interface Row {
  id: string;
  created_at: string;
  org: string;
  done_at: string | null;
  tags: string[];
}

const row = (id: string, day: number, org = 'a', doneDay: number | null = null): Row => ({
  id,
  created_at: `2025-07-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  org,
  done_at: doneDay === null ? null : `2025-07-${String(doneDay).padStart(2, '0')}T00:00:00.000Z`,
  tags: [],
});

let embedded: TestDatabase;
let cluster: PostgresCluster;
let postgres: Database;
let tables = 0;

beforeAll(async () => {
  embedded = await openTestDatabase();
  cluster = await startPostgresCluster();
  postgres = await openPostgres(cluster.url);
}, 60_000);

afterAll(async () => {
  await embedded?.remove();
  await postgres?.close();
  await cluster?.stop();
});

/** A fresh SQL collection in a table of its own. */
async function sqlCollection(
  db: Database,
  cache: CacheMode | null = null,
  cacheSize?: number,
): Promise<Collection<Row>> {
  const table = `rows_${++tables}`;
  await db.exec(collectionTable(table));
  return new SqlCollection<Row>(db, table, cache, cacheSize);
}

const memoryCollection = async (): Promise<Collection<Row>> => new MemoryCollection<Row>();

async function filled(empty: () => Promise<Collection<Row>> = memoryCollection): Promise<Collection<Row>> {
  const rows = await empty();
  for (const r of [
    row('r1', 1, 'a', 2),
    row('r2', 2, 'a'),
    row('r3', 2, 'b', 5),
    row('r4', 3, 'a', 4),
    row('r5', 3, 'a'),
  ]) {
    await rows.put(r);
  }
  return rows;
}

describe('SqlCollection with a cache', () => {
  it('answers get from the records it wrote or read, and forgets the least recently used past the bound', async () => {
    const rows = await sqlCollection(embedded.db, 'owned', 2);
    await rows.put(row('r1', 1));
    const first = await rows.get('r1');
    expect(await rows.get('r1')).toBe(first);
    // A change behind its back (no other process writes a cached database) shows it is answered from memory.
    await embedded.db.query(`UPDATE rows_${tables} SET record = jsonb_set(record, '{org}', '"z"')`);
    expect((await rows.get('r1'))?.org).toBe('a');
    // Least recently used goes first: r1, read after each put, stays; two puts without reading it push it out.
    for (const id of ['r2', 'r3']) {
      await rows.put(row(id, 2));
      expect((await rows.get('r1'))?.org).toBe('a');
    }
    await rows.put(row('r4', 2));
    await rows.put(row('r5', 2));
    expect((await rows.get('r1'))?.org).toBe('z');
    await rows.delete('r1');
    expect(await rows.get('r1')).toBeUndefined();
  });
});

/** `db`, listing the statements sent and counting those answered; `hold` holds back answers until `release`. */
function watched(db: Database) {
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  const watch = {
    statements: [] as string[],
    answered: 0,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
    db: {
      ...db,
      async query<R extends object>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
        watch.statements.push(sql);
        const rows = await db.query<R>(sql, params);
        watch.answered++;
        if (gate !== null) await gate;
        return rows;
      },
    } satisfies Database,
  };
  return watch;
}

describe('SqlCollection with a checked cache, two processes on one PostgreSQL', () => {
  let other: Database;
  beforeAll(async () => {
    other = await openPostgres(cluster.url);
  });
  afterAll(async () => {
    await other?.close();
  });

  /** The same new table seen by two processes: `a` writes, `b` reads (through `watched`). */
  async function pair() {
    await postgres.exec(collectionTable(`rows_${++tables}`));
    const seen = watched(other);
    return {
      a: new SqlCollection<Row>(postgres, `rows_${tables}`, 'checked'),
      b: new SqlCollection<Row>(seen.db, `rows_${tables}`, 'checked'),
      seen,
    };
  }

  it("reads another process's writes as soon as they are acknowledged, and hands out the held record while current", async () => {
    const { a, b } = await pair();
    await a.put(row('r1', 1));
    const first = await b.get('r1');
    expect(first).toEqual(row('r1', 1));
    expect(await b.get('r1')).toBe(first);
    await a.put({ ...row('r1', 1), org: 'z' });
    expect((await b.get('r1'))?.org).toBe('z');
    // A change by any writer at all, even one outside the store, is seen on the next read.
    await postgres.query(`UPDATE rows_${tables} SET record = jsonb_set(record, '{org}', '"y"')`);
    expect((await b.get('r1'))?.org).toBe('y');
    expect((await a.get('r1'))?.org).toBe('y');
    await a.delete('r1');
    expect(await b.get('r1')).toBeUndefined();
    await a.put(row('r1', 1, 'x'));
    expect((await b.get('r1'))?.org).toBe('x');
  });

  it('reads asked while a statement runs go together in the next one, each answered with its own row', async () => {
    const { a, b, seen } = await pair();
    for (const id of ['r1', 'r2', 'r3']) await a.put(row(id, 1, id));
    await b.get('r1');
    seen.statements.length = 0;
    const ids = Array.from({ length: 50 }, (_, i) => ['r1', 'r2', 'r3', 'missing'][i % 4] as string);
    const found = await Promise.all(ids.map((id) => b.get(id)));
    expect(found.map((record) => record?.org)).toEqual(ids.map((id) => (id === 'missing' ? undefined : id)));
    // The first read goes at once; the 49 asked while it ran share the next statement.
    expect(seen.statements).toHaveLength(2);
  });

  it('a read asked after a write elsewhere was acknowledged never takes the answer of a statement sent before it', async () => {
    const { a, b, seen } = await pair();
    await a.put(row('r1', 1, 'old'));
    await b.get('r1');
    seen.hold();
    const before = b.get('r1');
    // The statement of `before` has been answered (with the old row) and its answer is held back.
    await vi.waitFor(() => expect(seen.answered).toBe(2));
    await a.put(row('r1', 1, 'new'));
    const after = b.get('r1');
    seen.release();
    expect((await before)?.org).toBe('old');
    expect((await after)?.org).toBe('new');
  });
});

describe('MemoryCollection', () => {
  it('freezes records deeply on put and hands them out without copies: nothing stored can be changed', async () => {
    const rows = new MemoryCollection<Row>();
    const original = row('r1', 1);
    await rows.put(original);
    expect(() => original.tags.push('changed')).toThrow(TypeError);
    const read = await rows.get('r1');
    expect(read).toBe(original);
    expect(() => {
      if (read !== undefined) read.org = 'z';
    }).toThrow(TypeError);
    expect((await rows.list({ order: 'asc' }))[0]).toBe(original);
    expect(await rows.get('r1')).toEqual(row('r1', 1));
  });

  it('putting a changed copy of a stored record freezes the new parts and keeps the shared ones', async () => {
    const rows = new MemoryCollection<Row>();
    await rows.put(row('r1', 1));
    const stored = await rows.get('r1');
    if (stored === undefined) throw new Error('missing');
    const changed = { ...stored, done_at: '2025-07-02T00:00:00.000Z', tags: [...stored.tags, 'x'] };
    await rows.put(changed);
    expect(Object.isFrozen(changed) && Object.isFrozen(changed.tags)).toBe(true);
    expect((await rows.get('r1'))?.tags).toEqual(['x']);
    expect(stored.tags).toEqual([]);
  });
});

describe.each([
  ['memory', memoryCollection],
  ['embedded SQL', () => sqlCollection(embedded.db)],
  ['embedded SQL, cached', () => sqlCollection(embedded.db, 'owned', 2)],
  ['PostgreSQL', () => sqlCollection(postgres)],
  ['PostgreSQL, checked cache', () => sqlCollection(postgres, 'checked', 2)],
])('%s collection', (_kind, empty) => {
  it('replaces by id and deletes', async () => {
    const rows = await filled(empty);
    await rows.put({ ...row('r1', 1), org: 'z' });
    expect((await rows.get('r1'))?.org).toBe('z');
    expect(await rows.delete('r1')).toBe(true);
    expect(await rows.delete('r1')).toBe(false);
    expect(await rows.get('r1')).toBeUndefined();
    expect(await rows.list({ order: 'asc' })).toHaveLength(4);
  });

  it.each<[string, ListQuery<Row>, string[]]>([
    ['desc: newest first, ties by id', { order: 'desc' }, ['r5', 'r4', 'r3', 'r2', 'r1']],
    ['asc: oldest first', { order: 'asc' }, ['r1', 'r2', 'r3', 'r4', 'r5']],
    ['equality filter', { order: 'desc', where: { org: 'a' } }, ['r5', 'r4', 'r2', 'r1']],
    ['null equality', { order: 'asc', where: { done_at: null } }, ['r2', 'r5']],
    [
      'gte and lt on created_at',
      {
        order: 'asc',
        ranges: [{ field: 'created_at', gte: '2025-07-02T00:00:00.000Z', lt: '2025-07-03T00:00:00.000Z' }],
      },
      ['r2', 'r3'],
    ],
    [
      'a range excludes null members',
      { order: 'asc', ranges: [{ field: 'done_at', gte: '2025-07-01T00:00:00.000Z' }] },
      ['r1', 'r3', 'r4'],
    ],
    [
      'a range without bounds keeps string members',
      { order: 'asc', ranges: [{ field: 'done_at' }] },
      ['r1', 'r3', 'r4'],
    ],
    [
      'after a position (desc)',
      { order: 'desc', after: { created_at: '2025-07-03T00:00:00.000Z', id: 'r4' } },
      ['r3', 'r2', 'r1'],
    ],
    [
      'after a position (asc)',
      { order: 'asc', after: { created_at: '2025-07-02T00:00:00.000Z', id: 'r2' } },
      ['r3', 'r4', 'r5'],
    ],
    ['limit', { order: 'desc', limit: 2 }, ['r5', 'r4']],
  ])('list: %s', async (_name, query, ids) => {
    const rows = await filled(empty);
    expect((await rows.list(query)).map((r) => r.id)).toEqual(ids);
  });

  it('orders ids as JavaScript compares strings (upper case before lower case), on any server collation', async () => {
    const rows = await empty();
    for (const id of ['b1', 'B2', 'a3', 'A4']) await rows.put(row(id, 1));
    expect((await rows.list({ order: 'asc' })).map((r) => r.id)).toEqual(['A4', 'B2', 'a3', 'b1']);
    const after = { created_at: row('x', 1).created_at, id: 'B2' };
    expect((await rows.list({ order: 'asc', after })).map((r) => r.id)).toEqual(['a3', 'b1']);
    const ranged = await rows.list({ order: 'asc', ranges: [{ field: 'id', gte: 'B', lt: 'a' }] });
    expect(ranged.map((r) => r.id)).toEqual(['B2']);
  });

  it('keeps strings with U+0000 and U+E000, in values and keys, as they were put (jsonb cannot hold U+0000)', async () => {
    const rows = await empty();
    const odd = { ...row('n1', 1, 'a\u0000b'), tags: ['\u0000', '\uE000', '\uE0000', '\\u0000'] };
    const keyed = { ...row('n2', 1), 'k\u0000\uE000e': 'v' } as Row;
    await rows.put(odd);
    await rows.put(keyed);
    expect(await rows.get('n1')).toEqual(odd);
    expect(await rows.get('n2')).toEqual(keyed);
    expect((await rows.list({ order: 'asc', where: { org: 'a\u0000b' } })).map((r) => r.id)).toEqual(['n1']);
    expect(await rows.list({ order: 'asc' })).toEqual([odd, keyed]);
  });

  it('hands out frozen records equal to those put', async () => {
    const rows = await filled(empty);
    const read = await rows.get('r3');
    expect(read).toEqual(row('r3', 2, 'b', 5));
    expect(Object.isFrozen(read) && Object.isFrozen(read?.tags)).toBe(true);
    const [first] = await rows.list({ order: 'asc', limit: 1 });
    expect(Object.isFrozen(first)).toBe(true);
  });
});

describe('viewPerRecord', () => {
  it('builds a record’s view once, frozen, and a new one for the record that replaces it', async () => {
    const rows = await filled();
    let built = 0;
    const view = viewPerRecord((r: Row) => {
      built++;
      return { id: r.id, tags: r.tags };
    });
    const first = view((await rows.get('r1')) as Row);
    expect(view((await rows.get('r1')) as Row)).toBe(first);
    expect(built).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.tags)).toBe(true);
    await rows.put({ ...((await rows.get('r1')) as Row), tags: ['new'] });
    const second = view((await rows.get('r1')) as Row);
    expect(second).not.toBe(first);
    expect(second).toEqual({ id: 'r1', tags: ['new'] });
    expect(built).toBe(2);
  });
});
