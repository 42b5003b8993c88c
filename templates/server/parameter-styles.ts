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

/** `['R', '100', 'G', '200']` → `[['R', '100'], ['G', '200']]` (names and values alternate). */
function alternating(parts: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < parts.length; i += 2) pairs.push([parts[i] ?? '', parts[i + 1] ?? '']);
  return pairs;
}

/** `['R=100', 'G=200']` → `[['R', '100'], ['G', '200']]`. */
function assignments(parts: readonly string[]): [string, string][] {
  return parts.map((part) => {
    const at = part.indexOf('=');
    return at === -1 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
  });
}

/**
 * A list in `separator`-joined text (`simple`, `label` and the delimited styles): an array of items, an object from
 * `name=value` items (exploded) or alternating names and values, or one primitive.
 */
function fromList(text: string, decoding: ParameterDecoding, separator: string): unknown {
  const { shape } = decoding;
  if ('items' in shape) return text === '' ? [] : text.split(separator).map((item) => scalarOf(item, shape));
  if ('properties' in shape) {
    if (text === '') return record();
    const parts = text.split(separator);
    return objectOf(decoding.explode ? assignments(parts) : alternating(parts), shape);
  }
  return scalarOf(text, shape);
}

/**
 * A path or header value: `simple` (`blue,black`), `label` (`.blue.black`; unexploded lists are read with commas
 * as RFC 6570 writes them, or with dots as the OpenAPI 3.0.3 and 3.1.0 examples do) or `matrix` (`;color=blue`).
 */
export function decodeText(text: string, name: string, decoding: ParameterDecoding): unknown {
  switch (decoding.style) {
    case 'label': {
      if (!text.startsWith('.')) return text;
      const rest = text.slice(1);
      return fromList(rest, decoding, decoding.explode || !rest.includes(',') ? '.' : ',');
    }
    case 'matrix':
      return text.startsWith(';') ? fromMatrix(text.slice(1).split(';'), name, decoding) : text;
    default:
      return fromList(text, decoding, ',');
  }
}

/** Matrix segments (`color=blue,black`, or `color=blue` `color=black` exploded, or `R=100` `G=200`) as the value. */
function fromMatrix(segments: readonly string[], name: string, decoding: ParameterDecoding): unknown {
  const pairs = assignments(segments);
  const { shape } = decoding;
  if ('properties' in shape && decoding.explode) return objectOf(pairs, shape);
  const values = pairs.filter(([key]) => key === name).map(([, value]) => value);
  if ('items' in shape && decoding.explode) {
    return values.length === 1 && values[0] === '' ? [] : values.map((item) => scalarOf(item, shape));
  }
  return values.length === 1 ? fromList(values[0] ?? '', decoding, ',') : values;
}

/** The separator of an unexploded query list: `form` commas, `spaceDelimited` spaces, `pipeDelimited` pipes. */
const QUERY_SEPARATOR: Readonly<Record<string, string>> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/**
 * The query (or cookie pairs, style `form`) with each parameter of `decodings` read back: repeated names
 * (`color=a&color=b`) and delimited lists become arrays, exploded objects (`R=100&G=200`) and deep objects
 * (`color[R]=100`) gather their members under the parameter's name. Other names are kept as they are.
 */
export function decodeQuery(
  query: Readonly<Record<string, unknown>>,
  decodings: Readonly<Record<string, ParameterDecoding>>,
): Record<string, unknown> {
  const out = Object.assign(record(), query);
  for (const [name, decoding] of Object.entries(decodings)) {
    const { shape } = decoding;
    if ('properties' in shape && (decoding.style === 'deepObject' || (decoding.style === 'form' && decoding.explode))) {
      const members = gather(out, name, decoding, decodings);
      if (members.length > 0) out[name] = objectOf(members, shape);
      continue;
    }
    const raw = out[name];
    if (raw === undefined) continue;
    out[name] = fromQueryValue(raw, decoding);
  }
  return out;
}

/**
 * Takes the names an exploded or deep object's members travel under out of `query`; returns them as pairs. An
 * exploded object without declared members takes every name that is no other parameter's (the generator then
 * lists every query parameter in `decodings`).
 */
function gather(
  query: Record<string, unknown>,
  name: string,
  decoding: ParameterDecoding,
  decodings: Readonly<Record<string, ParameterDecoding>>,
): [string, string][] {
  const members: [string, string][] = [];
  const properties = 'properties' in decoding.shape ? Object.keys(decoding.shape.properties) : [];
  const deep = decoding.style === 'deepObject';
  const takesRest = !deep && properties.length === 0;
  for (const key of Object.keys(query)) {
    const member = deep
      ? key.startsWith(`${name}[`) && key.endsWith(']')
        ? key.slice(name.length + 1, -1)
        : undefined
      : properties.includes(key) || (takesRest && !Object.hasOwn(decodings, key))
        ? key
        : undefined;
    const value = query[key];
    if (member === undefined || typeof value !== 'string') continue;
    members.push([member, value]);
    delete query[key];
  }
  return members;
}

/** One query parameter's value (a string, or strings when the name repeats) as its shape wants it. */
function fromQueryValue(raw: unknown, decoding: ParameterDecoding): unknown {
  const values = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (!values.every((value): value is string => typeof value === 'string')) return raw;
  const { shape } = decoding;
  const separator = QUERY_SEPARATOR[decoding.style] ?? ',';
  if ('items' in shape) {
    const items = decoding.explode && decoding.style === 'form' ? values : values.flatMap((v) => v.split(separator));
    return items.length === 1 && items[0] === '' ? [] : items.map((item) => scalarOf(item, shape));
  }
  if (values.length !== 1) return raw;
  return fromList(values[0] ?? '', decoding, separator);
}

/** Cookie pairs (`a=1; b=2`) by name, values percent-decoded; a repeated name gives an array. */
export function parseCookies(header: string | undefined): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at === -1) continue;
    const name = pair.slice(0, at).trim();
    const value = safeDecode(pair.slice(at + 1).trim());
    const previous = out[name];
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Path parameters or headers with each one of `decodings` read back by `decodeText`; others as they are. */
export function decodeEach<T extends Readonly<Record<string, unknown>>>(
  values: T,
  decodings: Readonly<Record<string, ParameterDecoding>> | undefined,
): T {
  if (decodings === undefined) return values;
  const out: Record<string, unknown> = Object.assign(record(), values);
  for (const [name, decoding] of Object.entries(decodings)) {
    const text = out[name];
    if (typeof text === 'string') out[name] = decodeText(text, name, decoding);
  }
  return out as T;
}
