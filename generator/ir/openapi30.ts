/**
 * OpenAPI 3.0's schema dialect written as JSON Schema 2020-12, the one every later stage reads
 * (https://spec.openapis.org/oas/v3.0.3#schema-object): `nullable: true` adds `null` to `type` (and to `enum`),
 * and the boolean `exclusiveMinimum`/`exclusiveMaximum` become the numbers they qualify; a `type: 'null'` (3.1's) is
 * read as 3.1 reads it, with a warning. In a 3.1 document only
 * what is unambiguous is rewritten, with a warning each: a boolean bound (never valid 2020-12), and a schema's
 * `examples` written as a map of named examples (an annotation that must be a list: left out). `nullable` stays
 * there an annotation, as 2020-12 makes every keyword it does not know.
 */
import { isSchemaPosition } from '../load/refs.js';
import { toPointer } from '../load/source-map.js';
import type { IrWarning } from './model.js';

type Obj = Record<string, unknown>;

/** Keywords whose values are data, not schemas: nothing under them is rewritten. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-examples']);

/** Keywords whose values map names to schemas: the map itself is not a schema, its members are. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The rule of the warnings about OpenAPI 3.0 keywords read in a 3.1 document. */
export const RULE_30_IN_31 = 'casi/openapi-3.0-keyword';

/** The rule of the warnings about a schema's `examples` written as a map. */
export const RULE_SCHEMA_EXAMPLES = 'casi/schema-examples';

/** The rule of the warnings about OpenAPI 3.1 keywords read in a 3.0 document. */
export const RULE_31_IN_30 = 'casi/openapi-3.1-keyword';

/** The two bounds 3.0 writes as booleans beside `minimum`/`maximum`. */
const BOUNDS = [
  ['exclusiveMinimum', 'minimum'],
  ['exclusiveMaximum', 'maximum'],
] as const;

/**
 * The document with every 3.0 schema rewritten; for OpenAPI 3.1 the document itself, or a copy with its boolean
 * bounds rewritten (each reported to `warn`).
 */
export function asJsonSchemaDialect(doc: Obj, warn: (w: IrWarning) => void = () => {}): Obj {
  if (typeof doc.openapi !== 'string') return doc;
  if (doc.openapi.startsWith('3.0.'))
    return rewrite(doc, [], false, (schema, at) => {
      if (schema.type === 'null') warn(nullTypeWarning(at));
      return rewriteKeywords(schema);
    }) as Obj;
  if (!needsRewrite(doc, [], false)) return doc;
  return rewrite(doc, [], false, (schema, at) => {
    const out = rewriteBounds(schema);
    for (const [exclusive] of BOUNDS)
      if (typeof schema[exclusive] === 'boolean') warn(boundWarning(schema, exclusive, out, [...at, exclusive]));
    if (hasExamplesMap(schema, at)) {
      delete out.examples;
      warn(examplesWarning(at));
    }
    return out;
  }) as Obj;
}

/**
 * Whether a 3.1 document has something to rewrite where a schema may be: a boolean bound, or `examples` that is not
 * a list (the common case: nothing).
 */
function needsRewrite(node: unknown, at: string[], inMap: boolean): boolean {
  if (Array.isArray(node)) return node.some((item, i) => needsRewrite(item, [...at, String(i)], false));
  if (!node || typeof node !== 'object') return false;
  if (!inMap && BOUNDS.some(([exclusive]) => typeof (node as Obj)[exclusive] === 'boolean')) return true;
  if (!inMap && hasExamplesMap(node as Obj, at)) return true;
  return Object.entries(node).some(
    ([key, value]) =>
      !DATA.has(key) && !key.startsWith('x-') && needsRewrite(value, [...at, key], !inMap && SCHEMA_MAPS.has(key)),
  );
}

/**
 * A schema whose `examples` is not a list, as JSON Schema 2020-12 has it: a map of named examples, as OpenAPI writes
 * beside a schema (in a media type or a parameter), written inside it.
 */
function hasExamplesMap(node: Obj, at: string[]): boolean {
  return node.examples !== undefined && !Array.isArray(node.examples) && isSchemaPosition(at, false);
}

/** The warning of a schema's `examples` that is not a list: an annotation, left out. */
function examplesWarning(at: string[]): IrWarning {
  return {
    document: 'openapi',
    pointer: toPointer([...at, 'examples']),
    message:
      "a schema's examples are a list of values (JSON Schema); named examples belong beside the schema, in the media type or parameter: left out",
    rule: RULE_SCHEMA_EXAMPLES,
  };
}

/** The warning of one boolean bound of a 3.1 schema, saying what it was read as. */
function boundWarning(schema: Obj, exclusive: 'exclusiveMinimum' | 'exclusiveMaximum', out: Obj, at: string[]) {
  const read =
    typeof out[exclusive] === 'number'
      ? `read as ${exclusive}: ${out[exclusive]}`
      : schema[exclusive] === true
        ? `no ${exclusive === 'exclusiveMinimum' ? 'minimum' : 'maximum'} to qualify: ignored`
        : 'ignored';
  return {
    document: 'openapi' as const,
    pointer: toPointer(at),
    message: `${exclusive}: ${schema[exclusive]} is OpenAPI 3.0; in 3.1 (JSON Schema 2020-12) it is the bound itself, a number: ${read}`,
    rule: RULE_30_IN_31,
  };
}

/**
 * `node` with `keywords` applied to each object where a schema may be, below `at`; data (`example`, `x-…`) as
 * written, and the name maps (`properties`, …) walked without being read as schemas.
 */
function rewrite(node: unknown, at: string[], inMap: boolean, keywords: (schema: Obj, at: string[]) => Obj): unknown {
  if (Array.isArray(node)) return node.map((item, i) => rewrite(item, [...at, String(i)], false, keywords));
  if (!node || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node))
    out[key] =
      DATA.has(key) || key.startsWith('x-')
        ? value
        : rewrite(value, [...at, key], !inMap && SCHEMA_MAPS.has(key), keywords);
  return inMap ? out : keywords(out, at);
}

/** The warning of a 3.0 schema that writes `type: 'null'`, which only 3.1 has: it is read as 3.1 reads it. */
function nullTypeWarning(at: string[]): IrWarning {
  return {
    document: 'openapi',
    pointer: toPointer([...at, 'type']),
    message:
      "type: 'null' is OpenAPI 3.1 (JSON Schema); 3.0 writes `nullable: true` beside a type: read as 3.1 reads it, the value null",
    rule: RULE_31_IN_30,
  };
}

/** The boolean bounds of one schema object as the numbers they qualify (dropped where there is none). */
function rewriteBounds(schema: Obj): Obj {
  const out: Obj = { ...schema };
  for (const [exclusive, inclusive] of BOUNDS) {
    const flag = schema[exclusive];
    if (typeof flag !== 'boolean') continue;
    delete out[exclusive];
    if (flag && typeof schema[inclusive] === 'number') {
      out[exclusive] = schema[inclusive];
      delete out[inclusive];
    }
  }
  return out;
}

/** The 3.0 keywords of one schema object, in their 2020-12 form. */
function rewriteKeywords(schema: Obj): Obj {
  const { nullable, ...rest } = rewriteBounds(schema);
  if (nullable === true) return withNull(rest);
  if (nullable !== undefined && typeof nullable !== 'boolean') rest.nullable = nullable;
  return rest;
}

/** `schema` that also accepts `null`. */
function withNull(schema: Obj): Obj {
  if (typeof schema.type === 'string') {
    const out: Obj = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type))
    return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  // No type (a composition or a reference): either the schema or null.
  return { anyOf: [schema, { type: 'null' }] };
}
