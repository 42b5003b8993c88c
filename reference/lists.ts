/**
 * Paging of lists: opaque cursors naming the position (`created_at`, `id`) of a page's last item, so later pages
 * never shift; the page size; time filters.
 */
import { invalidRequest } from './errors.js';

/** Where a page ended, in the list order (newest first by `created_at`, then by `id`). */
export interface ListPosition {
  readonly created_at: string;
  readonly id: string;
}

const PREFIX = 'cur_';
const SEPARATOR = '|';

/** The cursor naming `position`: `cur_` + base64url of `<created_at>|<id>`. */
export function encodeCursor(position: ListPosition): string {
  return PREFIX + Buffer.from(`${position.created_at}${SEPARATOR}${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; 400 `invalid_request` for anything `encodeCursor` did not make. */
export function decodeCursor(cursor: string): ListPosition {
  const fail = () =>
    invalidRequest([{ in: 'query', pointer: '/cursor', message: 'is not a cursor this service returned' }]);
  if (!cursor.startsWith(PREFIX)) throw fail();
  const text = Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8');
  const at = text.indexOf(SEPARATOR);
  const position = { created_at: text.slice(0, at), id: text.slice(at + 1) };
  if (at < 0 || Number.isNaN(Date.parse(position.created_at)) || position.id === '') throw fail();
  if (encodeCursor(position) !== cursor) throw fail();
  return position;
}

/** Smallest, default and largest page size (DECISIONS.md, "Lists"). */
export const PAGE_LIMITS = { min: 1, default: 20, max: 100 } as const;

/** The page size asked for, defaulted; 400 `invalid_request` outside 1–100. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return PAGE_LIMITS.default;
  if (!Number.isInteger(limit) || limit < PAGE_LIMITS.min || limit > PAGE_LIMITS.max) {
    throw invalidRequest([{ in: 'query', pointer: '/limit', message: 'must be an integer from 1 to 100' }]);
  }
  return limit;
}

/** One page: `items` (at most `limit`) and the cursor of the next page, null on the last one. */
export function toPage<T extends ListPosition>(
  fetched: readonly T[],
  limit: number,
): { items: T[]; cursor: string | null } {
  const items = fetched.slice(0, limit);
  const last = items[items.length - 1];
  const cursor = fetched.length > limit && last !== undefined ? encodeCursor(last) : null;
  return { items, cursor };
}

/** A time filter of the query (`created_at_gte` …) as ISO 8601 UTC; 400 `invalid_request` when it is not a time. */
export function timeFilter(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidRequest([{ in: 'query', pointer: `/${name}`, message: 'must be a date-time' }]);
  return new Date(time).toISOString();
}
