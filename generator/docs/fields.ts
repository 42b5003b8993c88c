/** Flattens an object schema of the IR into documented field rows (nested objects as `parent.child`). */

import type { IrSchema, JsonSchema } from '../ir/model.js';
import { schemaRefName } from '../load/index.js';

/** One documented field of a payload or envelope. */
export interface FieldRow {
  /** Dotted path from the schema's root, e.g. `channel.type`. */
  readonly path: string;
  /** A readable type: `string`, `"agent.message.delta"`, `"a" | "b"`, `GenerationId (string)`, `string | null`. */
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
  /** Constraints worth stating: `1–4096 characters`, `pattern ^…$`, `format date-time`. */
  readonly constraints: readonly string[];
  /** The field, or the schema it references, fills a gap of the source (`x-casi-inferred`). */
  readonly inferred: boolean;
}

/** How deep nested objects are expanded. */
const MAX_DEPTH = 3;

type Schemas = ReadonlyMap<string, JsonSchema>;

/** Indexes the IR's component schemas by name. */
export function schemaIndex(schemas: readonly IrSchema[]): Schemas {
  return new Map(schemas.map((s) => [s.name, s.schema]));
}

/** The rows of an object schema (or a `$ref` to one), in declaration order; `skip` leaves out rows by path. */
export function fieldRows(schema: JsonSchema, schemas: Schemas, skip: readonly string[] = []): FieldRow[] {
  return rowsOf(schema, schemas, '', 0).filter((row) => !skip.includes(row.path));
}

function rowsOf(schema: JsonSchema, schemas: Schemas, prefix: string, depth: number): FieldRow[] {
  const target = resolve(schema, schemas);
  const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(target.required) ? (target.required as string[]) : []);
  return Object.entries(properties).flatMap(([name, property]) => {
    const path = prefix + name;
    const refName = schemaRefName(property.$ref);
    const resolved = resolve(property, schemas);
    const row: FieldRow = {
      path,
      type: typeOf(property, schemas),
      required: required.has(name),
      description: stringOf(property.description) || stringOf(resolved.description),
      constraints: constraintsOf(resolved),
      inferred: property['x-casi-inferred'] === true || (refName !== undefined && resolved['x-casi-inferred'] === true),
    };
    const nested = isObjectWithProperties(resolved) && depth + 1 < MAX_DEPTH;
    return nested ? [row, ...rowsOf(resolved, schemas, `${path}.`, depth + 1)] : [row];
  });
}

/** Follows `$ref`s to component schemas (bounded). */
function resolve(schema: JsonSchema, schemas: Schemas): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 16; hops++) {
    const name = schemaRefName(current.$ref);
    const next = name === undefined ? undefined : schemas.get(name);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

function isObjectWithProperties(schema: JsonSchema): boolean {
  return typeof schema.properties === 'object' && schema.properties !== null;
}

/** The readable type of a schema, naming the component it references. */
export function typeOf(schema: JsonSchema, schemas: Schemas): string {
  const refName = schemaRefName(schema.$ref);
  if (refName !== undefined) {
    const target = schemas.get(refName);
    const inner = target === undefined ? '' : typeOf(target, schemas);
    return inner && inner !== 'object' ? `${refName} (${inner})` : refName;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const key of ['oneOf', 'anyOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) return members.map((m) => typeOf(m as JsonSchema, schemas)).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((m) => typeOf(m as JsonSchema, schemas)).join(' & ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  const named = types.filter((t): t is string => typeof t === 'string');
  if (named.length === 0) return 'any';
  return named
    .map((t) => (t === 'array' && schema.items ? `${typeOf(schema.items as JsonSchema, schemas)}[]` : t))
    .join(' | ');
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  const { minLength, maxLength, minimum, maximum, pattern, format } = schema;
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number') out.push(`${min}–${max}${unit}`);
    else if (typeof min === 'number') out.push(`at least ${min}${unit}`);
    else if (typeof max === 'number') out.push(`at most ${max}${unit}`);
  };
  range(minLength, maxLength, ' characters');
  range(minimum, maximum, '');
  if (typeof pattern === 'string') out.push(`pattern ${pattern}`);
  if (typeof format === 'string') out.push(`format ${format}`);
  return out;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
