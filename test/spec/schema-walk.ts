/** Walks OpenAPI schemas by property path, following `$ref`, `allOf`, `anyOf` and `oneOf`, for the coverage test. */
import { derefLocal, isObject, type Json, type JsonObject, openapi } from './load-specs.ts';

/** A path segment: a property name, or `[]` for the items of an array. */
export type Segment = string;

function deref(node: Json | undefined): JsonObject | undefined {
  const resolved = derefLocal(openapi, node);
  return isObject(resolved) ? resolved : undefined;
}

/**
 * The schema and every schema it pulls in through `$ref`, `allOf`, `anyOf` and `oneOf`, recursively. Union
 * branches are included: a field is found if any branch has it.
 */
export function expand(schema: Json | undefined): JsonObject[] {
  const out: JsonObject[] = [];
  const seen = new Set<JsonObject>();
  const visit = (node: Json | undefined): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    out.push(node);
    if (typeof node.$ref === 'string') visit(deref({ $ref: node.$ref }));
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) for (const branch of list) visit(branch);
    }
  };
  visit(schema);
  return out;
}

/** The schemas found at `path` below `roots`; throws with the path walked so far when a segment is missing. */
export function walk(roots: Json[], path: readonly Segment[], label: string): JsonObject[] {
  let current: Json[] = roots;
  path.forEach((segment, index) => {
    const next: Json[] = [];
    for (const schema of current.flatMap((s) => expand(s))) {
      if (segment === '[]') {
        if (isObject(schema.items)) next.push(schema.items);
      } else if (isObject(schema.properties) && schema.properties[segment] !== undefined) {
        next.push(schema.properties[segment]);
      }
    }
    if (next.length === 0) {
      const walked = path.slice(0, index + 1).join('.');
      throw new Error(`${label}: the spec has no '${segment}' at ${walked}`);
    }
    current = next;
  });
  return current.filter(isObject);
}

/** Property names of the schemas (union over every expanded branch). */
export function propertiesOf(schemas: Json[]): Set<string> {
  const out = new Set<string>();
  for (const schema of schemas.flatMap((s) => expand(s))) {
    if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) out.add(name);
  }
  return out;
}

/**
 * Members a schema requires: its own `required`, those of its `$ref` and `allOf` parts, and those every branch of
 * an `anyOf`/`oneOf` requires.
 */
export function requiredOf(schema: Json | undefined, seen = new Set<JsonObject>()): Set<string> {
  const out = new Set<string>();
  if (!isObject(schema) || seen.has(schema)) return out;
  seen.add(schema);
  if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') out.add(name);
  if (typeof schema.$ref === 'string') for (const name of requiredOf(deref({ $ref: schema.$ref }), seen)) out.add(name);
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) for (const name of requiredOf(part, seen)) out.add(name);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const sets = branches.map((branch) => requiredOf(branch, new Set(seen)));
    const [first, ...rest] = sets;
    for (const name of first ?? []) if (rest.every((set) => set.has(name))) out.add(name);
  }
  return out;
}

/** The `enum` and `const` values reachable from the schemas, `null` left out. */
export function enumValues(schemas: Json[]): Set<string | number | boolean> {
  const out = new Set<string | number | boolean>();
  const add = (value: Json): void => {
    if (value !== null && typeof value !== 'object') out.add(value);
  };
  for (const schema of schemas.flatMap((s) => expand(s))) {
    if (Array.isArray(schema.enum)) for (const value of schema.enum) add(value);
    if (schema.const !== undefined) add(schema.const);
  }
  return out;
}

/** Whether any expanded schema admits `null` (`type: 'null'`, a type list with it, or `null` in `enum`/`const`). */
export function allowsNull(schemas: Json[]): boolean {
  return schemas
    .flatMap((s) => expand(s))
    .some(
      (schema) =>
        schema.type === 'null' ||
        (Array.isArray(schema.type) && schema.type.includes('null')) ||
        (Array.isArray(schema.enum) && schema.enum.includes(null)) ||
        schema.const === null,
    );
}

/** The `default` values declared on the schemas or on what they reference. */
export function defaultsOf(schemas: Json[]): Json[] {
  return schemas.flatMap((s) => expand(s)).flatMap((schema) => ('default' in schema ? [schema.default as Json] : []));
}

/** Object variants of a union (the leaves reached through `$ref`, `anyOf` and `oneOf` that declare `properties`). */
export function variantsOf(schemas: Json[]): JsonObject[] {
  return schemas.flatMap((s) => expand(s)).filter((schema) => isObject(schema.properties));
}

/** The variant whose `tag` property admits `value`; throws unless exactly one does. */
export function variantByTag(schemas: Json[], tag: string, value: string, label: string): JsonObject {
  const matches = variantsOf(schemas).filter((variant) => {
    const properties = variant.properties;
    if (!isObject(properties) || properties[tag] === undefined) return false;
    return enumValues([properties[tag]]).has(value);
  });
  if (matches.length !== 1) {
    throw new Error(`${label}: expected exactly one variant with ${tag} = '${value}', found ${matches.length}`);
  }
  return matches[0] as JsonObject;
}
