/**
 * Timer rows on the embedded database: a due row is leased to one claimer until its lease is over, then to the
 * next; only the lease's holder renews it or deletes the row; a row saved again is a new one, not leased.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseTimerRows } from '../../reference/database/timer-rows.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase | undefined;

afterEach(async () => {
  await database?.remove();
  database = undefined;
});

const NAME = 'conv_1/phone-dial';
const ALL = Number.MAX_SAFE_INTEGER;

async function timerRows(): Promise<DatabaseTimerRows> {
  database = await openTestDatabase();
  return new DatabaseTimerRows(database.db);
}

describe('DatabaseTimerRows', () => {
  it('leases a due row to one claimer until the lease is over, then to the next, which alone finishes it', async () => {
    const rows = await timerRows();
    await rows.save(NAME, 1000);
    expect(await rows.due(ALL, 1000)).toEqual([{ name: NAME, dueAt: 1000 }]);
    expect(await rows.claim(NAME, 1000, 1000, 6000)).toBe(true);
    // While leased: no second claim, and no process takes it up.
    expect(await rows.claim(NAME, 1000, 5999, 10_999)).toBe(false);
    expect(await rows.due(ALL, 5999)).toEqual([]);
    // The claimer died: once its lease is over the row is taken up and claimed again.
    expect(await rows.due(ALL, 6000)).toEqual([{ name: NAME, dueAt: 1000 }]);
    expect(await rows.claim(NAME, 1000, 6000, 11_000)).toBe(true);
    // The old lease neither renews nor deletes it.
    expect(await rows.renew(NAME, 1000, 6000, 12_000)).toBe(false);
    await rows.finish(NAME, 1000, 6000);
    expect(await rows.due(ALL, ALL)).toEqual([{ name: NAME, dueAt: 1000 }]);
    expect(await rows.renew(NAME, 1000, 11_000, 16_000)).toBe(true);
    await rows.finish(NAME, 1000, 16_000);
    expect(await rows.due(ALL, ALL)).toEqual([]);
    expect(await rows.claim(NAME, 1000, ALL, ALL)).toBe(false);
  });

  it('a row saved again while leased (a task setting its own next step) is new and unleased; the old lease leaves it', async () => {
    const rows = await timerRows();
    await rows.save(NAME, 1000);
    expect(await rows.claim(NAME, 1000, 1000, 6000)).toBe(true);
    await rows.save(NAME, 3000);
    expect(await rows.renew(NAME, 1000, 6000, 7000)).toBe(false);
    await rows.finish(NAME, 1000, 6000);
    expect(await rows.due(ALL, 2000)).toEqual([{ name: NAME, dueAt: 3000 }]);
    expect(await rows.claim(NAME, 3000, 3000, 8000)).toBe(true);
  });
});
