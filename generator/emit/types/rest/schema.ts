/**
 * The TypeScript type of a JSON Schema (OpenAPI 3.0 or 3.1), in openapi-typescript's forms: objects as type literals
 * (optional unless required, `readonly` when `readOnly`), `allOf` as an intersection, `anyOf`/`oneOf` as a union,
 * `nullable` and `type: [..., 'null']` as `| null`, binary data as `Blob`, an object with nothing declared as
 * `Record<string, unknown>`.
 */
import { withDoc } from './comments.js';
import { type Context, needWithRequired } from './context.js';
import { tagProperty } from './discriminators.js';
import {
  BOOLEAN,
  factory,
  intersection,
  isPrimitive,
  type Json,
  literalType,
  NEVER,
  NULL,
  NUMBER,
  nullable,
  omit,
  pointerOf,
  property,
  record,
  refType,
  STRING,
  sortedEntries,
  stringIndex,
  type TypeElement,
  type TypeNode,
  ts,
  UNKNOWN,
  union,
} from './nodes.js';

/** The type of `schema` at `path` (a pointer of openapi-typescript's, used to find discriminators). */
export function schemaType(schema: Json, context: Context, path: string): TypeNode {
  if (!schema) return NEVER;
  if (schema === true) return UNKNOWN;
  if (Array.isArray(schema) || typeof schema !== 'object') {
    throw new Error(`Expected SchemaObject, received ${Array.isArray(schema) ? 'Array' : typeof schema} at ${path}`);
  }
  if ('$ref' in schema) return refType(schema.$ref);
  // openapi-typescript types `const: null` as unknown; it allows null alone.
  if ('const' in schema && schema.const !== undefined) return literalType(schema.const);
  if (
    Array.isArray(schema.enum) &&
    schema.type !== 'object' &&
    !('properties' in schema) &&
    !('additionalProperties' in schema)
  ) {
    const members = schema.enum.map(literalType);
    if ((Array.isArray(schema.type) && schema.type.includes('null')) || schema.nullable) members.push(NULL);
    return union(members);
  }
  let type: TypeNode | undefined;
  const core = coreType(schema, context, path);
  const allOf = allOfTypes(schema.allOf ?? [], schema.required, context, path);
  if (core || allOf.length > 0) {
    type = intersection([...(core ? [core] : []), ...(allOf.length > 0 ? [intersection(allOf)] : [])]);
  }
  const anyOf = (schema.anyOf ?? []).map((item: Json, i: number) =>
    schemaType(item, context, pointerOf([path, 'anyOf', String(i)])),
  );
  if (anyOf.length > 0) type = union([...(type ? [type] : []), ...anyOf]);
  const oneOfSource = schema.oneOf || (schema.type === 'object' && schema.enum) || [];
  const oneOf = oneOfSource.map((item: Json, i: number) =>
    schemaType(item, context, pointerOf([path, 'oneOf', String(i)])),
  );
  if (oneOf.length > 0) {
    type = oneOf.every(isPrimitive)
      ? union([...(type ? [type] : []), ...oneOf])
      : intersection([...(type ? [type] : []), union(oneOf)]);
  }
  type ??= 'type' in schema ? record(STRING, UNKNOWN) : UNKNOWN;
  return type !== UNKNOWN && schema.nullable ? nullable(type) : type;
}

/**
 * Binary data (`format: binary`, or OpenAPI 3.1's `contentMediaType` on a schema with no `type`) as a `Blob`, which
 * is what a client sends in a multipart part and reads from a binary answer; `Blob | null` where null is allowed.
 */
export function binaryAsBlob(schema: Json): TypeNode | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const binary =
    schema.format === 'binary' ||
    (typeof schema.contentMediaType === 'string' && schema.type === undefined && schema.contentEncoding === undefined);
  if (!binary) return undefined;
  const blob = factory.createTypeReferenceNode('Blob');
  const canBeNull = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
  return canBeNull ? factory.createUnionTypeNode([blob, NULL]) : blob;
}

/** The members of `allOf`: each required name of the holder added to a referenced schema that declares it. */
function allOfTypes(items: readonly Json[], required: Json, context: Context, path: string): TypeNode[] {
  return items.map((item) => {
    if (!item || typeof item !== 'object') return schemaType(item, context, path);
    let type: TypeNode;
    if ('$ref' in item) {
      type = schemaType(item, context, path);
      const resolved = context.resolve(item.$ref);
      if (
        resolved &&
        typeof resolved === 'object' &&
        'properties' in resolved &&
        !context.discriminators.refsHandled.includes(item.$ref)
      ) {
        const names = ((required ?? []) as string[]).filter((key) => !!resolved.properties?.[key]);
        if (names.length > 0) {
          needWithRequired(context);
          type = factory.createTypeReferenceNode('WithRequired', [type, union(names.map(literalType))]);
        }
      }
    } else {
      const names = [...((required ?? []) as string[]), ...(Array.isArray(item.required) ? item.required : [])];
      type = schemaType({ ...item, required: names }, context, path);
    }
    const discriminator = ('$ref' in item && context.discriminators.objects[item.$ref]) || item.discriminator;
    return discriminator ? omit(type, [discriminator.propertyName]) : type;
  });
}

/** The type the schema's own keywords give (type, properties, items), before `allOf`/`anyOf`/`oneOf`. */
function coreType(schema: Json, context: Context, path: string): TypeNode | undefined {
  if ('type' in schema && schema.type) {
    const binary = binaryAsBlob(schema);
    if (binary) return binary;
    if (schema.type === 'null') return NULL;
    if (schema.type === 'string') return STRING;
    if (schema.type === 'number' || schema.type === 'integer') return NUMBER;
    if (schema.type === 'boolean') return BOOLEAN;
    if (schema.type === 'array') return arrayType(schema, context, path);
    if (Array.isArray(schema.type)) return typeListType(schema, context, path);
  }
  const members: TypeElement[] = [];
  for (const key of ['allOf', 'anyOf']) {
    if (!schema[key]) continue;
    const inherited =
      !schema.discriminator &&
      !context.discriminators.refsHandled.includes(path) &&
      context.discriminators.objects[path];
    if (inherited) {
      members.unshift(tagProperty(inherited, path));
      break;
    }
  }
  const hasProperties = schema.properties && Object.keys(schema.properties).length > 0;
  if (!(hasProperties || schema.additionalProperties || schema.patternProperties || schema.$defs)) {
    return members.length > 0 ? factory.createTypeLiteralNode(members) : undefined;
  }
  if (hasProperties) members.push(...propertyMembers(schema, context, path));
  if (schema.$defs && typeof schema.$defs === 'object' && Object.keys(schema.$defs).length > 0) {
    const defs = Object.entries(schema.$defs).map(([name, def]: [string, Json]) =>
      withDoc(def, property(name, schemaType(def, context, pointerOf([path, '$defs', name])), false, !!def?.readOnly)),
    );
    members.push(property('$defs', factory.createTypeLiteralNode(defs)));
  }
  const additional = schema.additionalProperties;
  const indexTypes: TypeNode[] = [];
  if (additional !== null && typeof additional === 'object' && Object.keys(additional).length > 0)
    indexTypes.push(schemaType(additional, context, path));
  if (
    additional === true ||
    (additional !== null && typeof additional === 'object' && Object.keys(additional).length === 0)
  )
    indexTypes.push(UNKNOWN);
  if (typeof schema.patternProperties === 'object' && Object.keys(schema.patternProperties).length > 0) {
    for (const [, pattern] of sortedEntries(schema.patternProperties))
      indexTypes.push(schemaType(pattern, context, path));
  }
  if (indexTypes.length === 0) return members.length > 0 ? factory.createTypeLiteralNode(members) : undefined;
  return intersection([
    ...(members.length > 0 ? [factory.createTypeLiteralNode(members)] : []),
    factory.createTypeLiteralNode([stringIndex('key', union(indexTypes))]),
  ]);
}

/** `properties`, sorted by name. */
function propertyMembers(schema: Json, context: Context, path: string): TypeElement[] {
  return sortedEntries(schema.properties).map(([name, value]) => {
    if ((typeof value !== 'object' && typeof value !== 'boolean') || Array.isArray(value)) {
      throw new Error(
        `${path}: invalid property ${name}. Expected Schema Object or boolean, got ${Array.isArray(value) ? 'Array' : typeof value}`,
      );
    }
    const optional = !schema.required?.includes(name);
    const isObject = value !== null && typeof value === 'object';
    const declared =
      isObject && '$ref' in value ? refType(value.$ref) : schemaType(value, context, pointerOf([path, name]));
    const type = binaryAsBlob(value) ?? declared;
    const readOnly = isObject && !!value.readOnly;
    return withDoc(value, property(name, type, optional, readOnly));
  });
}

/** An array: its items' type as `T[]`, a tuple for `prefixItems` (or 3.0-style `items: [...]`). */
function arrayType(schema: Json, context: Context, path: string): TypeNode {
  let items: TypeNode = UNKNOWN;
  if (schema.prefixItems || Array.isArray(schema.items)) {
    const prefix: Json[] = schema.prefixItems ?? schema.items;
    items = factory.createTupleTypeNode(prefix.map((item) => schemaType(item, context, path)));
  } else if (schema.items) {
    const nested = typeof schema.items === 'object' && schema.items.type === 'array';
    items = nested
      ? factory.createArrayTypeNode(schemaType(schema.items, context, path))
      : schemaType(schema.items, context, path);
  }
  return ts.isTupleTypeNode(items) || ts.isArrayTypeNode(items) ? items : factory.createArrayTypeNode(items);
}

/** `type: [a, b, …]`: the union of the schema read with each type; members a `oneOf` already types are left to it. */
function typeListType(schema: Json, context: Context, path: string): TypeNode {
  const types: TypeNode[] = [];
  for (const t of schema.type) {
    if (Array.isArray(schema.oneOf)) {
      const covered =
        ['boolean', 'string', 'number', 'integer', 'null'].includes(t) &&
        schema.oneOf.find((o: Json) => typeof o === 'object' && 'type' in o && o.type === t);
      if (covered) continue;
      types.push(
        t === 'null' || t === null ? NULL : schemaType({ ...schema, type: t, oneOf: undefined }, context, path),
      );
    } else {
      types.push(t === 'null' || t === null ? NULL : schemaType({ ...schema, type: t }, context, path));
    }
  }
  return union(types);
}
