/**
 * Negative data: mutations of a valid value that its schema must reject — wrong type, missing required member,
 * out-of-enum, over-long or too short, out of range, wrong pattern or format, extra member where none is allowed.
 * Each mutant names the JSON pointer the server's error must point at.
 */
import type { JsonSchema } from '../generator/ir/model.js';
import { refName } from './spec.js';

/** What a mutation did. */
export type MutationKind =
  | 'wrong_type'
  | 'missing_required'
  | 'out_of_enum'
  | 'too_long'
  | 'too_short'
  | 'out_of_range'
  | 'wrong_pattern'
  | 'wrong_format'
  | 'extra_member';

/** One invalid variant of a document. */
export interface Mutant {
  readonly kind: MutationKind;
  /** Where the value was changed (for a missing or extra member: that member's pointer). */
  readonly pointer: string;
  /** The whole mutated document. */
  readonly value: unknown;
  /**
   * The pointer of the innermost `anyOf`/`oneOf` above the change, if any: a validator may blame the union rather
   * than the branch, so an error anywhere from here down to `pointer` names the change.
   */
  readonly unionPointer?: string;
}

/** What `mutate` needs: reference resolution and a validity check of any schema. */
export interface MutationOptions {
  readonly resolve: (name: string) => JsonSchema;
  readonly isValid: (schema: JsonSchema, value: unknown) => boolean;
}

/** The member name of an extra (forbidden) member. */
export const EXTRA_MEMBER = 'conformance_unexpected';

/** Replacement values of a string schema that break it, by kind (only those the schema constrains). */
export function stringMutations(schema: JsonSchema): { kind: MutationKind; value: string }[] {
  const out: { kind: MutationKind; value: string }[] = [];
  if (typeof schema.maxLength === 'number') out.push({ kind: 'too_long', value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push({ kind: 'too_short', value: '' });
  if (typeof schema.pattern === 'string') out.push({ kind: 'wrong_pattern', value: 'not!an-id' });
  if (schema.format === 'date-time') out.push({ kind: 'wrong_format', value: 'yesterday at noon' });
  if (schema.format === 'uri') out.push({ kind: 'wrong_format', value: 'not a uri' });
  if (Array.isArray(schema.enum) || 'const' in schema) out.push({ kind: 'out_of_enum', value: 'not_a_listed_value' });
  return out;
}

/** One node of a walk: its resolved schema, its value, its path, and the pointer of the union above it, if any. */
export interface WalkNode {
  readonly schema: JsonSchema;
  readonly value: unknown;
  readonly path: readonly string[];
  readonly union: string | undefined;
}

/**
 * Visits `value` along `schema`: references resolved, into the first `anyOf`/`oneOf` branch that accepts the value,
 * into present members and the first item of arrays. `visit` sees every node (unions included, before their branch).
 */
export function walk(
  schema: JsonSchema,
  value: unknown,
  options: MutationOptions,
  visit: (node: WalkNode) => void,
): void {
  const step = (
    node: JsonSchema,
    current: unknown,
    path: readonly string[],
    union: string | undefined,
    depth: number,
  ) => {
    if (depth > 32) return;
    const name = refName(node);
    if (name !== undefined) {
      step(options.resolve(name), current, path, union, depth + 1);
      return;
    }
    visit({ schema: node, value: current, path, union });
    const branches = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(branches)) {
      const branch = branches.find((b) => options.isValid(b, current));
      if (branch) step(branch, current, path, union ?? toPointer(path), depth + 1);
      return;
    }
    if (Array.isArray(current) && current.length > 0 && node.items && typeof node.items === 'object')
      step(node.items as JsonSchema, current[0], [...path, '0'], union, depth + 1);
    if (current && typeof current === 'object' && !Array.isArray(current))
      for (const [key, sub] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>))
        if (key in current) step(sub, (current as Record<string, unknown>)[key], [...path, key], union, depth + 1);
  };
  step(schema, value, [], undefined, 0);
}

/** Every mutant of `value` (valid against `schema`) that `schema` rejects. */
export function mutate(schema: JsonSchema, value: unknown, options: MutationOptions): Mutant[] {
  const found: Mutant[] = [];
  walk(schema, value, options, ({ schema: node, value: current, path, union }) => {
    const add = (kind: MutationKind, at: readonly string[], replacement: unknown) =>
      found.push({
        kind,
        pointer: toPointer(at),
        value: replaceAt(value, at, replacement),
        ...(union === undefined ? {} : { unionPointer: union }),
      });
    const wrong = WRONG_TYPES.find((c) => jsonType(c) !== jsonType(current) && !options.isValid(node, c));
    if (wrong !== undefined && path.length > 0) add('wrong_type', path, wrong);
    if (Array.isArray(node.anyOf ?? node.oneOf)) return;
    if (typeof current === 'string') for (const m of stringMutations(node)) add(m.kind, path, m.value);
    if (typeof current === 'number') {
      if (typeof node.minimum === 'number') add('out_of_range', path, node.minimum - 1);
      if (typeof node.maximum === 'number') add('out_of_range', path, node.maximum + 1);
    }
    if (current && typeof current === 'object' && !Array.isArray(current)) {
      const record = current as Record<string, unknown>;
      for (const key of (node.required ?? []) as string[])
        if (key in record) add('missing_required', [...path, key], REMOVE);
      if (node.additionalProperties === false) add('extra_member', [...path, EXTRA_MEMBER], 1);
    }
  });
  const seen = new Set<string>();
  return found.filter((m) => {
    const key = `${m.kind} ${m.pointer}`;
    if (seen.has(key) || options.isValid(schema, m.value)) return false;
    seen.add(key);
    return true;
  });
}

/** Paths of the free-form objects in `value`: objects that take members of any shape (no `properties`, no limit). */
export function freeFormPaths(schema: JsonSchema, value: unknown, options: MutationOptions): string[][] {
  const found: string[][] = [];
  walk(schema, value, options, ({ schema: node, value: current, path }) => {
    const open = node.additionalProperties === undefined || node.additionalProperties === true;
    const plainObject = current !== null && typeof current === 'object' && !Array.isArray(current);
    if (plainObject && open && node.properties === undefined && !Array.isArray(node.anyOf ?? node.oneOf))
      found.push([...path]);
  });
  return found;
}

/** A copy of `root` with `member` set to `memberValue` in the object at `path`. */
export function withMember(root: unknown, path: readonly string[], member: string, memberValue: unknown): unknown {
  const copy = structuredClone(root) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path) node = node[key] as Record<string, unknown>;
  node[member] = memberValue;
  return copy;
}

/** Whether an error pointer names the change of `mutant` (exactly, or on the way up to its union). */
export function pointsAt(mutant: Pick<Mutant, 'pointer' | 'unionPointer'>, pointer: string): boolean {
  if (pointer === mutant.pointer) return true;
  if (mutant.unionPointer === undefined) return false;
  return isPrefix(mutant.unionPointer, pointer) && isPrefix(pointer, mutant.pointer);
}

/** Values of each JSON type; the first of another type than the value's that the schema rejects is `wrong_type`. */
const WRONG_TYPES: readonly unknown[] = [12345, 'text', true, [1], null, { conformance: true }];

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

const REMOVE = Symbol('remove');

function isPrefix(prefix: string, pointer: string): boolean {
  return pointer === prefix || pointer.startsWith(prefix === '' ? '/' : `${prefix}/`) || prefix === '';
}

function toPointer(path: readonly string[]): string {
  return path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** A copy of `root` with the value at `path` replaced (or removed for `REMOVE`). */
function replaceAt(root: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (replacement === REMOVE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = replacement;
  return copy;
}
