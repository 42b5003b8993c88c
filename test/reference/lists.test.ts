/** Paging helpers: cursors round-trip and refuse forgeries, page sizes, time filters, `toPage`. */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageLimit, timeFilter, toPage } from '../../reference/lists.js';

const invalid = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code: string; data: unknown }).code;
  }
  return 'accepted';
};

describe('cursors', () => {
  it('round-trips a position and stays opaque', () => {
    const position = { created_at: '2025-07-01T00:00:00.000Z', id: 'conv_abc123' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^cur_[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('conv_abc123');
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    'abc',
    'cur_',
    'cur_!!!',
    `cur_${Buffer.from('no-separator').toString('base64url')}`,
    `cur_${Buffer.from('yesterday|conv_1').toString('base64url')}`,
    `cur_${Buffer.from('2025-07-01T00:00:00.000Z|').toString('base64url')}`,
  ])('refuses %s with invalid_request', (cursor) => {
    expect(invalid(() => decodeCursor(cursor))).toBe('invalid_request');
  });
});

describe('pageLimit', () => {
  it.each([
    [undefined, 20],
    [1, 1],
    [100, 100],
  ])('%s → %s', (limit, expected) => {
    expect(pageLimit(limit)).toBe(expected);
  });

  it.each([0, 101, 2.5, -1])('refuses %s', (limit) => {
    expect(invalid(() => pageLimit(limit))).toBe('invalid_request');
  });
});

describe('timeFilter', () => {
  it('normalises any ISO 8601 form to UTC with milliseconds', () => {
    expect(timeFilter('2025-07-01T02:00:00+02:00', 'created_at_gte')).toBe('2025-07-01T00:00:00.000Z');
    expect(timeFilter('2025-07-01T00:00:00Z', 'created_at_gte')).toBe('2025-07-01T00:00:00.000Z');
    expect(timeFilter(undefined, 'created_at_gte')).toBeUndefined();
  });

  it('refuses what is not a time', () => {
    expect(invalid(() => timeFilter('soon', 'created_at_lt'))).toBe('invalid_request');
  });
});

describe('toPage', () => {
  const items = [1, 2, 3].map((n) => ({ created_at: `2025-07-0${n}T00:00:00.000Z`, id: `x_${n}` }));

  it('gives a cursor only when more items were fetched than the limit', () => {
    expect(toPage(items, 3)).toEqual({ items, cursor: null });
    const page = toPage(items, 2);
    expect(page.items).toEqual(items.slice(0, 2));
    expect(page.cursor === null ? null : decodeCursor(page.cursor)).toEqual(items[1]);
  });
});
