/**
 * The discriminating member of a set of messages: a top-level member that every message's payload fixes to string
 * values (`const` or `enum`, through `$ref`, `allOf` and `oneOf`/`anyOf`). Values that tell every message apart win;
 * else any shared member narrows as far as it can. Without one, messages are told apart by name (by validation).
 */
import type { IrChannelMessages, IrMessage, JsonSchema } from './model.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** References followed and schemas combined before a member counts as not fixed. */
const MAX_DEPTH = 8;

/** The set of `messages` with its discriminator, and each key (a value of it, or a message name) to its messages. */
export function discriminate(
  messages: readonly IrMessage[],
  schemaOf: (name: string) => JsonSchema | undefined,
): IrChannelMessages {
  const names = messages.map((m) => m.name);
  const fixed = messages.map((m) => fixedMembers(schemaOf(m.schemaName) ?? {}, schemaOf, 0));
  const shared = [...(fixed[0]?.keys() ?? [])].filter((member) => fixed.every((f) => f.has(member))).sort(preferType);
  const disjoint = shared.find((member) => {
    const seen = new Set<string>();
    return fixed.every((f) => [...(f.get(member) ?? [])].every((v) => !seen.has(v) && seen.add(v)));
  });
  const member = disjoint ?? shared[0];
  if (member === undefined) return { messages: names, keys: Object.fromEntries(names.map((n) => [n, [n]])) };
  const keys: Record<string, string[]> = {};
  for (const [i, values] of fixed.entries())
    for (const value of [...(values.get(member) ?? [])].sort()) keys[value] = [...(keys[value] ?? []), names[i] ?? ''];
  return { messages: names, discriminator: member, keys };
}

/** `type` first (the usual tag), then by name. */
function preferType(a: string, b: string): number {
  return (b === 'type' ? 1 : 0) - (a === 'type' ? 1 : 0) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The top-level members of `schema` fixed to a finite set of strings, with those strings. */
export function fixedMembers(
  schema: JsonSchema,
  schemaOf: (name: string) => JsonSchema | undefined,
  depth: number,
): Map<string, Set<string>> {
  if (depth > MAX_DEPTH) return new Map();
  const node = referenced(schema, schemaOf);
  const found = new Map<string, Set<string>>();
  for (const [member, value] of Object.entries(obj(node.properties))) {
    const values = fixedValues(referenced(obj(value), schemaOf));
    if (values) found.set(member, values);
  }
  // `allOf`: a member fixed by any part is fixed.
  for (const part of Array.isArray(node.allOf) ? node.allOf : [])
    for (const [member, values] of fixedMembers(obj(part), schemaOf, depth + 1))
      if (!found.has(member)) found.set(member, values);
  // `oneOf`/`anyOf`: fixed only when every alternative fixes it; the values are all of theirs.
  for (const keyword of ['oneOf', 'anyOf']) {
    const alternatives = Array.isArray(node[keyword]) ? (node[keyword] as unknown[]) : [];
    if (alternatives.length === 0) continue;
    const each = alternatives.map((a) => fixedMembers(obj(a), schemaOf, depth + 1));
    for (const member of each[0]?.keys() ?? []) {
      if (!each.every((e) => e.has(member))) continue;
      const values = new Set(each.flatMap((e) => [...(e.get(member) ?? [])]));
      if (!found.has(member)) found.set(member, values);
    }
  }
  return found;
}

/** The strings a schema allows when it is a string `const` or an `enum` of strings. */
function fixedValues(schema: Obj): Set<string> | undefined {
  if (typeof schema.const === 'string') return new Set([schema.const]);
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === 'string'))
    return new Set(schema.enum as string[]);
  return undefined;
}

/** The schema a `#/components/schemas/X` reference names (followed a few times), or the schema itself. */
function referenced(schema: Obj, schemaOf: (name: string) => JsonSchema | undefined): Obj {
  let current = schema;
  for (let hops = 0; hops < MAX_DEPTH && typeof current.$ref === 'string'; hops++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name === undefined ? undefined : schemaOf(decodeURIComponent(name).replace(/~1/g, '/'));
    if (target === undefined) break;
    current = obj(target);
  }
  return current;
}
