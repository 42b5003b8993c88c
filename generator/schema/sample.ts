/**
 * One value of a JSON Schema, for answers of a spec that has no handlers: the schema's own example, else a value
 * built from it (the first enum value, the minimum, required members, one item). Deterministic: the same schema
 * always gives the same value.
 */
import type { JsonSchema } from '../ir/model.js';
import { declaredType } from './declared-type.js';
import { taggedUnion } from './discriminator-tags.js';

/** Finds a component schema by name (`#/components/schemas/<name>`). */
export type Resolve = (name: string) => JsonSchema | undefined;

/** References deeper than this give `null`, so a recursive schema still has a value. */
const MAX_DEPTH = 10;

/** Strings of well-known formats, valid for the checks the runtime makes. */
const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': '/',
  iri: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'AA==',
  binary: '',
  password: 'secret',
};

/** A value of `schema`; references are followed through `resolve`. */
export function sampleOf(schema: JsonSchema | boolean | undefined, resolve: Resolve, depth = 0): unknown {
  if (schema === undefined || typeof schema === 'boolean') return {};
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref !== undefined) {
    const target = resolve(decodeURIComponent(ref));
    return target === undefined || depth >= MAX_DEPTH ? null : sampleOf(target, resolve, depth + 1);
  }
  if (Array.isArray(schema.allOf)) return merged(schema, resolve, depth);
  const tagged = taggedUnion(schema);
  const first = tagged?.members[0];
  if (tagged !== undefined && first !== undefined) {
    // The first member, with the tag the discriminator gives it (its own schema may allow any string there).
    const value = sampleOf({ $ref: first.ref }, resolve, depth + 1);
    return value && typeof value === 'object' ? { ...value, [tagged.property]: first.tags[0] } : value;
  }
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return sampleOf(union[0], resolve, depth + 1);
  return byType(schema, declaredType(schema), resolve, depth);
}

function byType(schema: JsonSchema, type: string | undefined, resolve: Resolve, depth: number): unknown {
  switch (type) {
    case 'string':
      return text(schema);
    case 'integer':
    case 'number':
      return number(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return depth >= MAX_DEPTH
        ? []
        : Array.from({ length: count }, () => sampleOf(schema.items as JsonSchema, resolve, depth + 1));
    }
    case 'object':
      return object(schema, resolve, depth);
    default:
      return {};
  }
}

/** Its format's example, else `string` padded or cut to the length bounds. */
function text(schema: JsonSchema): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
  return 'string'.padEnd(min, 'x').slice(0, max);
}

/** The minimum (or 0), within the maximum, on the `multipleOf` grid. */
function number(schema: JsonSchema, integer: boolean): number {
  const nudge = integer ? 1 : 0.5;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  const low =
    typeof minimum === 'number' ? minimum : typeof exclusiveMinimum === 'number' ? exclusiveMinimum + nudge : 0;
  const high =
    typeof maximum === 'number' ? maximum : typeof exclusiveMaximum === 'number' ? exclusiveMaximum - nudge : undefined;
  let value = high !== undefined && low > high ? high : low;
  if (typeof multipleOf === 'number' && multipleOf > 0) value = Math.ceil(value / multipleOf) * multipleOf;
  return integer ? Math.ceil(value) : value;
}

/** The required members, and the others near the top (a deeper recursive schema stays small). */
function object(schema: JsonSchema, resolve: Resolve, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(properties)) {
    if (required.has(name) || depth < 2) out[name] = sampleOf(member, resolve, depth + 1);
  }
  for (const name of required) if (!(name in out)) out[name] = 'string';
  return out;
}

/**
 * A value of every part of an `allOf` at once (the schema's own keywords are a part too): objects get the members of
 * all parts, each member's schemas combined the same way; a scalar comes from the part that fixes it, if any.
 */
function merged(schema: JsonSchema, resolve: Resolve, depth: number): unknown {
  const { allOf, ...own } = schema;
  const parts = flatten([own, ...(allOf as JsonSchema[])], resolve, depth);
  if (parts.length === 0) return {};
  const objects = parts.filter((p) => declaredType(p) === 'object');
  if (objects.length === 0) {
    const fixed = parts.find((p) => 'const' in p || Array.isArray(p.enum) || 'example' in p);
    return sampleOf(fixed ?? parts.find((p) => declaredType(p) !== undefined) ?? parts[0], resolve, depth + 1);
  }
  const members = new Map<string, JsonSchema[]>();
  for (const part of objects)
    for (const [name, member] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>))
      members.set(name, [...(members.get(name) ?? []), member]);
  const required = [...new Set(objects.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : [])))];
  const properties = Object.fromEntries(
    [...members].map(([name, list]) => [name, list.length === 1 ? list[0] : { allOf: list }]),
  );
  return byType({ type: 'object', properties, required }, 'object', resolve, depth);
}

/** The parts of an `allOf`, references followed and nested `allOf`s spread, empty parts left out. */
function flatten(parts: readonly JsonSchema[], resolve: Resolve, depth: number): JsonSchema[] {
  if (depth >= MAX_DEPTH) return [];
  return parts.flatMap((part) => {
    const ref = typeof part.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(part.$ref)?.[1] : undefined;
    const target = ref === undefined ? part : resolve(decodeURIComponent(ref));
    if (target === undefined || Object.keys(target).length === 0) return [];
    if (!Array.isArray(target.allOf)) return [target];
    const { allOf, ...own } = target;
    return flatten([own, ...(allOf as JsonSchema[])], resolve, depth + 1);
  });
}
