/**
 * Writes parameter values in their location's default style (`form` exploded in the query and cookies, `simple`
 * in the path and headers): what most calls need. The other styles (parameter-styles.ts) build on it and load with
 * the first call that uses one.
 */
import { CasiError } from './errors.js';

export type Encode = (text: string) => string;

/** How a style writes a value: its prefix, whether it names the value, and its item separators. */
export interface Layout {
  readonly prefix: string;
  readonly named: boolean;
  /** Between the items of an unexploded array or object. */
  readonly join: string;
  /** Between the items of an exploded array or object. */
  readonly explodeJoin: string;
  /** An empty value is written as its name alone (`;color`, as `matrix` does). */
  readonly bareWhenEmpty?: true;
}

export const SIMPLE_LAYOUT: Layout = { prefix: '', named: false, join: ',', explodeJoin: ',' };
export const FORM_LAYOUT: Layout = { prefix: '', named: true, join: ',', explodeJoin: '&' };
/** A cookie's form layout: exploded items become cookies of their own, separated as a `Cookie` header separates them. */
const COOKIE_LAYOUT: Layout = { ...FORM_LAYOUT, explodeJoin: '; ' };

/** An item as text: primitives with `String`, objects and arrays inside a value as JSON. */
export function text(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The defined members of an object, as `[name, value]` pairs. */
export function members(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, member]) => member !== undefined && member !== null);
}

/** One value written with `layout`; names and values encoded with `encode`, separators kept as they are. */
export function write(name: string, value: unknown, layout: Layout, explode: boolean, encode: Encode): string {
  const { prefix, named, join, explodeJoin } = layout;
  const key = encode(name);
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== undefined && item !== null).map((item) => encode(text(item)));
    if (!explode) return `${prefix}${named ? `${key}=` : ''}${items.join(join)}`;
    if (items.length === 0) return named ? '' : prefix;
    return prefix + items.map((item) => (named ? `${key}=${item}` : item)).join(explodeJoin);
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = members(value).map(([member, item]) => [encode(member), encode(text(item))] as const);
    if (!explode) return `${prefix}${named ? `${key}=` : ''}${pairs.flat().join(join)}`;
    return prefix + pairs.map(([member, item]) => `${member}=${item}`).join(explodeJoin);
  }
  const item = encode(text(value));
  if (!named) return `${prefix}${item}`;
  return layout.bareWhenEmpty && item === '' ? `${prefix}${key}` : `${prefix}${key}=${item}`;
}

/** Each defined member of `values` written by `writeOne`, the non-empty results joined with `separator`. */
export function writeAll(
  values: Readonly<Record<string, unknown>>,
  writeOne: (name: string, value: unknown) => string,
  separator: string,
): string {
  const parts: string[] = [];
  for (const name in values) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    const part = writeOne(name, value);
    if (part !== '') parts.push(part);
  }
  return parts.join(separator);
}

/**
 * A header value in `simple` style, not percent-encoded. HTTP lists have no escape for a comma, so an array or object
 * item holding one is refused rather than sent as two items.
 */
export function simpleHeader(value: unknown, explode: boolean, name: string): string {
  if (typeof value === 'object' && value !== null) {
    const items = Array.isArray(value) ? value : Object.entries(value).flat();
    if (items.some((item) => item !== undefined && item !== null && text(item).includes(',')))
      throw new CasiError(
        `An item of ${name} holds a comma, which a header list cannot carry: declare the parameter with JSON content.`,
      );
  }
  return write('', value, SIMPLE_LAYOUT, explode, (t) => t);
}

/** A cookie in `form` style, its value percent-encoded; exploded, an array or object gives one cookie per item. */
export function formCookie(name: string, value: unknown, explode: boolean): string {
  return write(name, value, COOKIE_LAYOUT, explode, encodeURIComponent);
}

/** How the parameters of one call are written, by location. */
export interface ParameterWriters {
  /** A path parameter's text, percent-encoded, for its place in the path template. */
  path(name: string, value: unknown): string;
  /** A query string (no `?`) of the defined members, in member order, percent-encoded. */
  query(query: Readonly<Record<string, unknown>>): string;
  /** A header parameter's value. */
  header(name: string, value: unknown): string;
  /** The `Cookie` header text of the defined members. */
  cookie(cookies: Readonly<Record<string, unknown>>): string;
}

/** Every parameter in its location's default style. */
export const DEFAULT_WRITERS: ParameterWriters = {
  path: (name, value) =>
    typeof value === 'object'
      ? write(name, value, SIMPLE_LAYOUT, false, encodeURIComponent)
      : encodeURIComponent(text(value)),
  query: (query) =>
    writeAll(
      query,
      (name, value) =>
        typeof value === 'object'
          ? write(name, value, FORM_LAYOUT, true, encodeURIComponent)
          : `${encodeURIComponent(name)}=${encodeURIComponent(text(value))}`,
      '&',
    ),
  header: (name, value) => simpleHeader(value, false, name),
  cookie: (cookies) => writeAll(cookies, (name, value) => formCookie(name, value, true), '; '),
};
