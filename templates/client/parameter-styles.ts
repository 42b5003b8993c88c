/**
 * Serialises parameter values as OpenAPI's `style` and `explode` say, for the query, the path, headers and cookies
 * (https://spec.openapis.org/oas/v3.1.0#style-values). The client loads it with the first call whose operation
 * has a parameter in a style other than its location's default (parameter-defaults.ts writes those).
 */
import {
  DEFAULT_WRITERS,
  type Encode,
  FORM_LAYOUT,
  formCookie,
  type Layout,
  members,
  type ParameterWriters,
  SIMPLE_LAYOUT,
  simpleHeader,
  text,
  write,
  writeAll,
} from './parameter-defaults.js';
import { type UrlParams, urlWith } from './url.js';

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

/** A `label` piece: percent-encoded with its dots too, so that a dot inside an item is not read as a separator. */
const encodeLabel: Encode = (text) => encodeURIComponent(text).replace(/\./g, '%2E');

/** A `spaceDelimited` piece: a space inside an item travels as `+`, as `%20` separates the items. */
const encodeSpaced: Encode = (text) => encodeURIComponent(text).replace(/%20/g, '+');

const LAYOUTS: Readonly<Record<Exclude<ParameterStyle, 'deepObject' | 'json'>, Layout>> = {
  simple: SIMPLE_LAYOUT,
  label: { prefix: '.', named: false, join: ',', explodeJoin: '.' },
  matrix: { prefix: ';', named: true, join: ',', explodeJoin: ';', bareWhenEmpty: true },
  form: FORM_LAYOUT,
  spaceDelimited: { prefix: '', named: true, join: '%20', explodeJoin: '&' },
  pipeDelimited: { prefix: '', named: true, join: '|', explodeJoin: '&' },
};

/** A value as its percent-encoded JSON text, named (`name=…`) or not. */
const json = (value: unknown, name?: string) =>
  `${name === undefined ? '' : `${encodeURIComponent(name)}=`}${encodeURIComponent(JSON.stringify(value))}`;

/**
 * `name[member]=value` pairs of a `deepObject` parameter (an array or primitive is written as `form`). A member that
 * is an object nests (`name[a][b]=1`), one that is an array repeats its key per item (`name[a]=1&name[a]=2`), as
 * the servers that read nested deep objects (qs, Rails, this runtime) expect.
 */
function deepObject(name: string, value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return write(name, value, FORM_LAYOUT, true, encodeURIComponent);
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

/**
 * A query string (no `?`) of `query`'s defined members, in member order, each written in its style (`form`
 * exploded by default) and percent-encoded.
 */
export function queryString(
  query: Readonly<Record<string, unknown>>,
  styles: Readonly<Record<string, StyleOf>> | undefined,
): string {
  if (styles === undefined) return DEFAULT_WRITERS.query(query);
  return writeAll(
    query,
    (name, value) => {
      const [style, explode] = styles[name] ?? FORM;
      if (style === 'deepObject') return deepObject(name, value);
      if (style === 'json') return json(value, name);
      const encode = style === 'spaceDelimited' ? encodeSpaced : encodeURIComponent;
      return write(name, value, LAYOUTS[style] ?? FORM_LAYOUT, explode, encode);
    },
    '&',
  );
}

/** A path parameter's text (`simple` by default), percent-encoded, for its place in the path template. */
export function pathValue(name: string, value: unknown, style: StyleOf = SIMPLE): string {
  if (style === SIMPLE) return DEFAULT_WRITERS.path(name, value);
  if (style[0] === 'json') return json(value);
  const layout = style[0] === 'label' || style[0] === 'matrix' ? LAYOUTS[style[0]] : SIMPLE_LAYOUT;
  return write(name, value, layout, style[1], style[0] === 'label' ? encodeLabel : encodeURIComponent);
}

/**
 * A header parameter's value: `simple` style (the only one headers have), not percent-encoded, an item holding a
 * comma refused (see `simpleHeader`); JSON text for `json`.
 */
export function headerValue(value: unknown, style: StyleOf = SIMPLE, name = 'a header'): string {
  return style[0] === 'json' ? JSON.stringify(value) : simpleHeader(value, style[1], name);
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
      return style === 'json' ? json(value, name) : formCookie(name, value, explode);
    },
    '; ',
  );
}

/** How the parameters of an operation with `styles` are written. */
export function styledWriters(styles: ParameterStyles): ParameterWriters {
  return {
    path: (name, value) => pathValue(name, value, styles.path?.[name]),
    query: (query) => queryString(query, styles.query),
    header: (name, value) => headerValue(value, styles.header?.[name], name),
    cookie: (cookies) => cookieText(cookies, styles.cookie),
  };
}

/**
 * The absolute URL of `path` (an OpenAPI path template such as `/conversations/{id}`) under `baseUrl`: each
 * parameter written in its style (`simple` by default) and percent-encoded, a whole segment `.` or `..` refused, and the query
 * written in its parameters' styles (`form` by default). A `#…` suffix of the template, which some documents use to
 * list one path twice, is not sent.
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  params: UrlParams = {},
  styles: ParameterStyles | undefined = undefined,
): string {
  return urlWith(baseUrl, path, params, styles === undefined ? DEFAULT_WRITERS : styledWriters(styles));
}
