/**
 * OpenAPI 3.0's schema dialect written as JSON Schema 2020-12, the one every later stage reads
 * (https://spec.openapis.org/oas/v3.0.3#schema-object): `nullable: true` adds `null` to `type` (and to `enum`),
 * and the boolean `exclusiveMinimum`/`exclusiveMaximum` become the numbers they qualify. 3.1 documents are
 * returned as they are.
 */
type Obj = Record<string, unknown>;

/** Keywords whose values are data, not schemas: nothing under them is rewritten. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-examples']);

/** The document with every 3.0 schema rewritten, or the document itself for OpenAPI 3.1. */
export function asJsonSchemaDialect(doc: Obj): Obj {
  return typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0.') ? (rewrite(doc) as Obj) : doc;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!node || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node))
    out[key] = DATA.has(key) || key.startsWith('x-') ? value : rewrite(value);
  return rewriteKeywords(out);
}

/** The 3.0 keywords of one schema object, in their 2020-12 form. */
function rewriteKeywords(schema: Obj): Obj {
  const { nullable, exclusiveMinimum, exclusiveMaximum, ...rest } = schema;
  const out: Obj = { ...rest };
  if (typeof exclusiveMinimum === 'boolean') {
    if (exclusiveMinimum && typeof rest.minimum === 'number') {
      out.exclusiveMinimum = rest.minimum;
      delete out.minimum;
    }
  } else if (exclusiveMinimum !== undefined) out.exclusiveMinimum = exclusiveMinimum;
  if (typeof exclusiveMaximum === 'boolean') {
    if (exclusiveMaximum && typeof rest.maximum === 'number') {
      out.exclusiveMaximum = rest.maximum;
      delete out.maximum;
    }
  } else if (exclusiveMaximum !== undefined) out.exclusiveMaximum = exclusiveMaximum;
  if (nullable === true) return withNull(out);
  if (nullable !== undefined && typeof nullable !== 'boolean') out.nullable = nullable;
  return out;
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
