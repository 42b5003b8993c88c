/**
 * Serialises parameter values as OpenAPI's `style` and `explode` say, for the query, the path, headers and cookies
 * (https://spec.openapis.org/oas/v3.1.0#style-values).
 */
import { CasiError } from './errors.js';

/**
 * The parameter styles of OpenAPI 3.x, and `json`: a parameter declared with `content` (a JSON media type), whose
 * value travels as its JSON text.
 */
export type ParameterStyle =
  | 'form'
  | 'spaceDelimited'
  | 'pipeDelimited'
  | 'deepObject'
  | 'simple'
  | 'label'
  | 'matrix'
  | 'json';

/** A parameter's `[style, explode]`. */
export type StyleOf = readonly [style: ParameterStyle, explode: boolean];

/** The styles of an operation's parameters by location and name, given only where they differ from the default. */
export interface ParameterStyles {
  readonly path?: Readonly<Record<string, StyleOf>> | undefined;
  readonly query?: Readonly<Record<string, StyleOf>> | undefined;
  readonly header?: Readonly<Record<string, StyleOf>> | undefined;
  readonly cookie?: Readonly<Record<string, StyleOf>> | undefined;
}

/** The defaults: `form` exploded in the query and cookies, `simple` not exploded in the path and headers. */
export const FORM: StyleOf = ['form', true];
export const SIMPLE: StyleOf = ['simple', false];

type Encode = (text: string) => string;
const asIs: Encode = (text) => text;

/** A `label` piece: percent-encoded with its dots too, so that a dot inside an item is not read as a separator. */
const encodeLabel: Encode = (text) => encodeURIComponent(text).replace(/\./g, '%2E');

/** A `spaceDelimited` piece: a space inside an item travels as `+`, as `%20` separates the items. */
const encodeSpaced: Encode = (text) => encodeURIComponent(text).replace(/%20/g, '+');

/** How a style writes a value: its prefix, whether it names the value, and its item separators. */
interface Layout {
  readonly prefix: string;
  readonly named: boolean;
  /** Between the items of an unexploded array or object. */
  readonly join: string;
  /** Between the items of an exploded array or object. */
  readonly explodeJoin: string;
}

const LAYOUTS: Readonly<Record<Exclude<ParameterStyle, 'deepObject' | 'json'>, Layout>> = {
  simple: { prefix: '', named: false, join: ',', explodeJoin: ',' },
  label: { prefix: '.', named: false, join: ',', explodeJoin: '.' },
  matrix: { prefix: ';', named: true, join: ',', explodeJoin: ';' },
  form: { prefix: '', named: true, join: ',', explodeJoin: '&' },
  spaceDelimited: { prefix: '', named: true, join: '%20', explodeJoin: '&' },
  pipeDelimited: { prefix: '', named: true, join: '|', explodeJoin: '&' },
};

/** A cookie's form layout: exploded items become cookies of their own, separated as a `Cookie` header separates them. */
const COOKIE_FORM: Layout = { ...LAYOUTS.form, explodeJoin: '; ' };

/** An item as text: primitives with `String`, objects and arrays inside a value as JSON. */
function text(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The defined members of an object, as `[name, value]` pairs. */
function members(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, member]) => member !== undefined && member !== null);
}

/** One value written with `layout`; names and values encoded with `encode`, separators kept as they are. */
function write(name: string, value: unknown, layout: Layout, explode: boolean, encode: Encode): string {
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
  // A matrix parameter with an empty value is its name alone (`;color`).
  return layout === LAYOUTS.matrix && item === '' ? `${prefix}${key}` : `${prefix}${key}=${item}`;
}

/**
 * `name[member]=value` pairs of a `deepObject` parameter (an array or primitive is written as `form`). A member that
 * is an object nests (`name[a][b]=1`), one that is an array repeats its key per item (`name[a]=1&name[a]=2`), as
 * the servers that read nested deep objects (qs, Rails, this runtime) expect.
 */
function deepObject(name: string, value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return write(name, value, LAYOUTS.form, true, encodeURIComponent);
  }
  return deepPairs(encodeURIComponent(name), value).join('&');
}

/** The `key[member]...=item` pairs of an object's defined members under the already encoded `key`. */
function deepPairs(key: string, value: object): string[] {
  return members(value).flatMap(([member, item]) => {
    const inner = `${key}[${encodeURIComponent(member)}]`;
    if (Array.isArray(item))
      return item.filter((x) => x !== undefined && x !== null).map((x) => `${inner}=${encodeURIComponent(text(x))}`);
    if (typeof item === 'object' && item !== null) return deepPairs(inner, item);
    return [`${inner}=${encodeURIComponent(text(item))}`];
  });
}

/** Each defined member of `values` written by `writeOne`, the non-empty results joined with `separator`. */
function writeAll(
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
 * A query string (no `?`) of `query`'s defined members, in member order, each written in its style (`form`
 * exploded by default) and percent-encoded.
 */
export function queryString(
  query: Readonly<Record<string, unknown>>,
  styles: Readonly<Record<string, StyleOf>> | undefined,
): string {
  return writeAll(
    query,
    (name, value) => {
      if (typeof value !== 'object' && styles === undefined)
        return `${encodeURIComponent(name)}=${encodeURIComponent(value as string)}`;
      const [style, explode] = styles?.[name] ?? FORM;
      if (style === 'deepObject') return deepObject(name, value);
      if (style === 'json') return `${encodeURIComponent(name)}=${encodeURIComponent(JSON.stringify(value))}`;
      const encode = style === 'spaceDelimited' ? encodeSpaced : encodeURIComponent;
      return write(name, value, LAYOUTS[style] ?? LAYOUTS.form, explode, encode);
    },
    '&',
  );
}

/** A path parameter's text (`simple` by default), percent-encoded, for its place in the path template. */
export function pathValue(name: string, value: unknown, style: StyleOf = SIMPLE): string {
  if (typeof value !== 'object' && style === SIMPLE) return encodeURIComponent(value as string);
  if (style[0] === 'json') return encodeURIComponent(JSON.stringify(value));
  const layout = style[0] === 'label' || style[0] === 'matrix' ? LAYOUTS[style[0]] : LAYOUTS.simple;
  return write(name, value, layout, style[1], style[0] === 'label' ? encodeLabel : encodeURIComponent);
}

/**
 * A header parameter's value: `simple` style (the only one headers have), not percent-encoded. HTTP lists have no
 * escape for a comma, so an array or object item holding one is refused rather than sent as two items.
 */
export function headerValue(value: unknown, style: StyleOf = SIMPLE, name = 'a header'): string {
  if (style[0] === 'json') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    const items = Array.isArray(value) ? value : Object.entries(value).flat();
    if (items.some((item) => item !== undefined && item !== null && text(item).includes(',')))
      throw new CasiError(
        `An item of ${name} holds a comma, which a header list cannot carry: declare the parameter with JSON content.`,
      );
  }
  return write('', value, LAYOUTS.simple, style[1], asIs);
}

/**
 * The `Cookie` header text of `cookies`' defined members (`form`, exploded by default): values percent-encoded;
 * an exploded array or object gives one cookie per item.
 */
export function cookieText(
  cookies: Readonly<Record<string, unknown>>,
  styles: Readonly<Record<string, StyleOf>> | undefined,
): string {
  return writeAll(
    cookies,
    (name, value) => {
      const [style, explode] = styles?.[name] ?? FORM;
      if (style === 'json') return `${encodeURIComponent(name)}=${encodeURIComponent(JSON.stringify(value))}`;
      return write(name, value, COOKIE_FORM, explode, encodeURIComponent);
    },
    '; ',
  );
}
