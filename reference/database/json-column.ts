/**
 * JSON for a `jsonb` column. JSON allows U+0000 in any string; PostgreSQL's `jsonb` cannot hold it. So strings are
 * stored with U+0000 written as U+E000 followed by `0`, and U+E000 itself as U+E000 followed by `e` (keys and values),
 * and read back the other way: what the API accepted is what it answers with.
 */

/** The escape character: a private-use code point. */
const MARK = '\uE000';

/** The text to store for `value`. */
export function toJsonColumn(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000') || text.includes(MARK) ? JSON.stringify(mapStrings(value, escapeNul)) : text;
}

/** The value of a column read as text (`column::text`). */
export function fromJsonColumn<T>(text: string): T {
  const value = JSON.parse(text) as T;
  return text.includes(MARK) ? (mapStrings(value, unescapeNul) as T) : value;
}

function escapeNul(text: string): string {
  return text.replaceAll(MARK, `${MARK}e`).replaceAll('\u0000', `${MARK}0`);
}

function unescapeNul(text: string): string {
  return text.replace(/\uE000([0e])/g, (_, code: string) => (code === '0' ? '\u0000' : MARK));
}

/** `value` with every string, keys included, passed through `map`. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]));
}
