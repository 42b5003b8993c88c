/**
 * OpenAPI parameter styles read back: each serialised path, query, header or cookie parameter becomes the value its
 * schema describes (array, object, primitives coerced) before validation. Text that does not fit its style is left
 * as it is, so that validation names the parameter.
 */
import { coerceScalar } from './query.js';
import type { ParameterDecoding, ValueShape } from './route.js';

/** A record without prototype, so that any parameter or member name (`__proto__` too) is an ordinary key. */
function record(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** One piece of text as the shape wants it: a primitive coerced, JSON parsed (left as text when it is not JSON). */
function scalarOf(text: string, shape: ValueShape): unknown {
  if ('type' in shape) return coerceScalar(text, shape.type);
  if ('items' in shape) return coerceScalar(text, shape.items);
  if ('json' in shape) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** An object from `[name, value]` pairs, each member coerced to its declared type. */
function objectOf(pairs: Iterable<readonly [string, string]>, shape: ValueShape): Record<string, unknown> {
  const properties = 'properties' in shape ? shape.properties : {};
  const out = record();
  for (const [name, value] of pairs) out[name] = coerceScalar(value, properties[name] ?? 'string');
  return out;
}

/** Turns one still-encoded piece of a parameter into its text (percent-decoding; identity for headers). */
export type Decode = (text: string) => string;

/** Header values travel as they are. */
const asIs: Decode = (text) => text;

/** `['R', '100', 'G', '200']` → `[['R', '100'], ['G', '200']]` (names and values alternate), each decoded. */
function alternating(parts: readonly string[], decode: Decode): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < parts.length; i += 2) pairs.push([decode(parts[i] ?? ''), decode(parts[i + 1] ?? '')]);
  return pairs;
}

/** `['R=100', 'G=200']` → `[['R', '100'], ['G', '200']]`: split on the first `=` before either side is decoded. */
function assignments(parts: readonly string[], decode: Decode): [string, string][] {
  return parts.map((part) => {
    const at = part.indexOf('=');
    return at === -1 ? [decode(part), ''] : [decode(part.slice(0, at)), decode(part.slice(at + 1))];
  });
}

/**
 * A list in `separator`-joined text (`simple`, `label` and the delimited styles), split while still encoded, then
 * each piece decoded: an array of items, an object from `name=value` items (exploded) or alternating names and
 * values, or one primitive.
 */
function fromList(text: string, decoding: ParameterDecoding, separator: string | RegExp, decode: Decode): unknown {
  const { shape } = decoding;
  if ('items' in shape) return text === '' ? [] : text.split(separator).map((item) => scalarOf(decode(item), shape));
  if ('properties' in shape) {
    if (text === '') return record();
    const parts = text.split(separator);
    return objectOf(decoding.explode ? assignments(parts, decode) : alternating(parts, decode), shape);
  }
  return scalarOf(decode(text), shape);
}

/**
 * A path or header value: `simple` (`blue,black`), `label` (`.blue.black`; unexploded lists are read with commas
 * as RFC 6570 writes them, or with dots as the OpenAPI 3.0.3 and 3.1.0 examples do) or `matrix` (`;color=blue`).
 * `text` is still percent-encoded (path) or as sent (headers): delimiters are found before `decode` runs, so an
 * encoded `%2C` stays inside its item.
 */
export function decodeText(text: string, name: string, decoding: ParameterDecoding, decode: Decode = asIs): unknown {
  switch (decoding.style) {
    case 'label': {
      if (!text.startsWith('.')) return decode(text);
      const rest = text.slice(1);
      return fromList(rest, decoding, decoding.explode || !rest.includes(',') ? '.' : ',', decode);
    }
    case 'matrix':
      return text.startsWith(';') ? fromMatrix(text.slice(1).split(';'), name, decoding, decode) : decode(text);
    default:
      return fromList(text, decoding, ',', decode);
  }
}

/** Matrix segments (`color=blue,black`, or `color=blue` `color=black` exploded, or `R=100` `G=200`) as the value. */
function fromMatrix(segments: readonly string[], name: string, decoding: ParameterDecoding, decode: Decode): unknown {
  const { shape } = decoding;
  if ('properties' in shape && decoding.explode) return objectOf(assignments(segments, decode), shape);
  const values = assignments(segments, asIs)
    .filter(([key]) => decode(key) === name)
    .map(([, value]) => value);
  if ('items' in shape && decoding.explode) {
    return values.length === 1 && values[0] === '' ? [] : values.map((item) => scalarOf(decode(item), shape));
  }
  return values.length === 1 ? fromList(values[0] ?? '', decoding, ',', decode) : values.map(decode);
}

/**
 * The separator of an unexploded query list, found in the still-encoded text: `form` commas, `spaceDelimited` an
 * encoded space (`%20`; a space inside an item travels as `+`), `pipeDelimited` pipes.
 */
const QUERY_SEPARATOR: Readonly<Record<string, string | RegExp>> = {
  form: ',',
  spaceDelimited: /%20/i,
  pipeDelimited: '|',
};

/** A query string or `Cookie` header as `[name, value]` pairs, both still percent-encoded, in the order sent. */
export type RawPairs = readonly (readonly [string, string])[];

/** `a=1&b=%2C` → `[['a', '1'], ['b', '%2C']]` (nothing decoded yet); empty pieces (`a=1&&b=2`) are skipped. */
export function rawQueryPairs(search: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of search.split('&')) {
    if (piece === '') continue;
    const at = piece.indexOf('=');
    pairs.push(at === -1 ? [piece, ''] : [piece.slice(0, at), piece.slice(at + 1)]);
  }
  return pairs;
}

/** Cookie pairs (`a=1; b=2`), names trimmed, values still percent-encoded. */
export function rawCookiePairs(header: string | undefined): [string, string][] {
  const pairs: [string, string][] = [];
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1) pairs.push([pair.slice(0, at).trim(), pair.slice(at + 1).trim()]);
  }
  return pairs;
}

/** A query piece as form encoding writes it: `+` is a space, then percent-decoding (malformed text kept). */
export function formDecode(text: string): string {
  return percentDecode(text.includes('+') ? text.replace(/\+/g, ' ') : text);
}

/** Percent-decoding; text with a malformed escape is kept as it is. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The query (or cookie pairs, style `form`) with each parameter of `decodings` read back from still-encoded
 * `pairs`: repeated names (`color=a&color=b`) and delimited lists become arrays, exploded objects (`R=100&G=200`)
 * and deep objects (`color[R]=100`, members nested as `color[a][b]=1` too) gather their members under the
 * parameter's name. Every piece is split on its style's delimiters before `decode` runs. Other names are decoded
 * as they are (a repeated name gives an array).
 */
export function decodeQuery(
  pairs: RawPairs,
  decodings: Readonly<Record<string, ParameterDecoding>>,
  decode: Decode,
): Record<string, unknown> {
  const out = record();
  const deep = Object.entries(decodings).filter(([, d]) => d.style === 'deepObject' && 'properties' in d.shape);
  const byName = new Map<string, string[]>();
  const members = new Map<string, [string[], string][]>();
  for (const [rawName, rawValue] of pairs) {
    const found = deep.length === 0 ? undefined : deepMember(rawName, deep, decode);
    if (found !== undefined) {
      const list = members.get(found.name) ?? [];
      list.push([found.path, rawValue]);
      members.set(found.name, list);
      continue;
    }
    const name = decode(rawName);
    const values = byName.get(name);
    if (values === undefined) byName.set(name, [rawValue]);
    else values.push(rawValue);
  }
  for (const [name, decoding] of Object.entries(decodings)) {
    const { shape } = decoding;
    if ('properties' in shape && decoding.style === 'deepObject') {
      const found = members.get(name);
      if (found !== undefined) out[name] = deepObjectOf(found, shape, decode);
      continue;
    }
    if ('properties' in shape && decoding.style === 'form' && decoding.explode) {
      const gathered = gather(byName, decoding, decodings);
      if (gathered.length > 0)
        out[name] = objectOf(
          gathered.map(([k, v]) => [k, decode(v)] as const),
          shape,
        );
      continue;
    }
    const raw = byName.get(name);
    if (raw === undefined) continue;
    byName.delete(name);
    out[name] = fromQueryValue(raw, decoding, decode);
  }
  for (const [name, values] of byName) {
    out[name] = values.length === 1 ? decode(values[0] ?? '') : values.map(decode);
  }
  return out;
}

/**
 * The deep-object parameter a still-encoded name belongs to and its member path: `color[R]` → `color`, `['R']`;
 * `color[a][b]` → `['a', 'b']`. Brackets are read where they are literal, so an encoded `%5B` stays inside a member
 * name; a name whose brackets are all encoded (as some clients write them) is read once decoded.
 */
function deepMember(
  rawName: string,
  deep: readonly (readonly [string, ParameterDecoding])[],
  decode: Decode,
): { name: string; path: string[] } | undefined {
  const literal = rawName.includes('[');
  const text = literal ? rawName : decode(rawName);
  const at = text.indexOf('[');
  if (at <= 0 || !text.endsWith(']')) return undefined;
  const head = literal ? decode(text.slice(0, at)) : text.slice(0, at);
  if (!deep.some(([name]) => name === head)) return undefined;
  const path: string[] = [];
  const rest = text.slice(at);
  const segment = /\[([^\]]*)\]/y;
  for (let match = segment.exec(rest); match !== null; match = segment.exec(rest)) {
    path.push(literal ? decode(match[1] ?? '') : (match[1] ?? ''));
    if (segment.lastIndex === rest.length) return { name: head, path };
  }
  return undefined;
}

/**
 * A deep object from member paths and still-encoded values, each member coerced as the shape declares it at its depth
 * (a member declared as an array gathers its repeated keys); members the shape does not know stay strings.
 */
function deepObjectOf(
  found: readonly [string[], string][],
  shape: ValueShape,
  decode: Decode,
): Record<string, unknown> {
  const out = record();
  for (const [path, rawValue] of found) {
    let target = out;
    let at: ValueShape | undefined = shape;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) target[key] = record();
      target = target[key] as Record<string, unknown>;
      at = at !== undefined && 'properties' in at ? at.members?.[key] : undefined;
    }
    const last = path[path.length - 1] ?? '';
    const value = decode(rawValue);
    const member = at !== undefined && 'properties' in at ? (at.members?.[last] ?? at.properties[last]) : undefined;
    if (typeof member === 'object' && 'items' in member) {
      const items = Array.isArray(target[last]) ? (target[last] as unknown[]) : [];
      items.push(coerceScalar(value, member.items));
      target[last] = items;
    } else target[last] = typeof member === 'string' ? coerceScalar(value, member) : value;
  }
  return out;
}

/**
 * Takes the names an exploded object's members travel under out of `byName` (decoded names, still-encoded values);
 * returns them as pairs. An exploded object without declared members takes every name that is no other parameter's
 * (the generator then lists every query parameter in `decodings`).
 */
function gather(
  byName: Map<string, string[]>,
  decoding: ParameterDecoding,
  decodings: Readonly<Record<string, ParameterDecoding>>,
): [string, string][] {
  const members: [string, string][] = [];
  const properties = 'properties' in decoding.shape ? Object.keys(decoding.shape.properties) : [];
  const takesRest = properties.length === 0;
  for (const [key, values] of byName) {
    if (!(properties.includes(key) || (takesRest && !Object.hasOwn(decodings, key))) || values.length !== 1) continue;
    members.push([key, values[0] ?? '']);
    byName.delete(key);
  }
  return members;
}

/** One query parameter's still-encoded value (several when the name repeats) as its shape wants it. */
function fromQueryValue(values: readonly string[], decoding: ParameterDecoding, decode: Decode): unknown {
  const { shape } = decoding;
  const separator = QUERY_SEPARATOR[decoding.style] ?? ',';
  if ('items' in shape) {
    const items = decoding.explode && decoding.style === 'form' ? values : values.flatMap((v) => v.split(separator));
    return items.length === 1 && items[0] === '' ? [] : items.map((item) => scalarOf(decode(item), shape));
  }
  if (values.length !== 1) return values.map(decode);
  return fromList(values[0] ?? '', decoding, separator, decode);
}

/**
 * Path parameters or headers with each one of `decodings` read back by `decodeText`; others as they are. `raw`
 * holds the path parameters still percent-encoded, as the request target carries them.
 */
export function decodeEach<T extends Readonly<Record<string, unknown>>>(
  values: T,
  decodings: Readonly<Record<string, ParameterDecoding>> | undefined,
  raw?: Readonly<Record<string, string>>,
): T {
  if (decodings === undefined) return values;
  const out: Record<string, unknown> = Object.assign(record(), values);
  for (const [name, decoding] of Object.entries(decodings)) {
    const encoded = raw?.[name];
    const text = out[name];
    if (encoded !== undefined) out[name] = decodeText(encoded, name, decoding, percentDecode);
    else if (typeof text === 'string') out[name] = decodeText(text, name, decoding);
  }
  return out as T;
}
