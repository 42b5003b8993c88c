/** Query strings: parsing (for raw upgrade requests) and coercion of strings to the types their schemas expect. */
import type { QueryCoercion, Scalar } from './route.js';

/** A parsed query: a repeated name gives an array. */
export type RawQuery = Readonly<Record<string, string | readonly string[]>>;

/**
 * Parses `a=1&b=2&b=3` into `{ a: '1', b: ['2', '3'] }` (like Fastify's parser), in an object without prototype,
 * so that `__proto__=1` is a parameter like any other (and refused as unknown) instead of vanishing.
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[name] = [previous, value];
  }
  return query;
}

/** Query text that may name `__proto__` (written out or percent-encoded): Fastify's parser drops that name. */
const MAY_NAME_PROTO = /proto/i;

/** The query of a request target: Fastify's `parsed` unless the text may name `__proto__`, then `parseQuery`'s. */
export function queryOf(url: string, parsed: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const start = url.indexOf('?');
  if (start === -1 || !MAY_NAME_PROTO.test(url.slice(start))) return parsed;
  return parseQuery(url.slice(start + 1));
}

/**
 * Returns a copy of the query where each parameter named in `coercion` is converted when its string is a valid
 * literal of the type; anything else is left as is, so the validator reports it. Without coercions (or without
 * parameters) the query itself is returned.
 */
export function coerceQuery(
  query: Readonly<Record<string, unknown>>,
  coercion: Readonly<Record<string, QueryCoercion>>,
): Readonly<Record<string, unknown>> {
  if (isEmpty(coercion) || isEmpty(query)) return query;
  const result: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(query)) {
    const kind = coercion[name];
    result[name] = kind !== undefined && typeof value === 'string' ? coerceScalar(value, kind) : value;
  }
  return result;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** `value` as the `kind` it is a valid literal of (`'12'` → 12, `'true'` → true), else the string itself. */
export function coerceScalar(value: string, kind: Scalar): unknown {
  switch (kind) {
    case 'string':
      return value;
    case 'integer':
      return /^-?\d+$/.test(value) ? Number(value) : value;
    case 'number':
      return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
  }
}
