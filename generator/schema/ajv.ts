/** One ajv (JSON Schema 2020-12) setup for every schema of the spec: used to precompile and by `casi validate`. */
import type Ajv2020Module from 'ajv/dist/2020.js';
import { formats } from '../../templates/shared/formats.js';
import { eventSchema } from '../ir/events.js';
import type { Ir, JsonSchema } from '../ir/model.js';
import { requirePackage } from '../require-package.js';
import { requestPartSchemas } from './operations.js';

const { _, Ajv2020, Name } = requirePackage('ajv/dist/2020') as typeof Ajv2020Module;

type Ajv = InstanceType<typeof Ajv2020>;

/**
 * The name standalone code gives the `formats` object of `templates/shared/formats.ts`: the emitter imports it
 * under this name, so the precompiled validators run the same format code as `casi validate`.
 */
export const FORMATS_BINDING = 'casiFormats';

/** The `$id` under which a component schema or a message is registered. */
export function schemaId(name: string): string {
  return `urn:casi:schema:${name}`;
}

/** A schema ajv refuses or cannot compile, by the name the validators give it. */
export class SchemaError extends Error {
  constructor(
    readonly schemaName: string,
    readonly kind: SchemaKind,
    readonly reason: string,
  ) {
    super(`the ${kind} ${schemaName} cannot be compiled: ${reason}`);
  }
}

/** What a validatable schema is: a component schema, an AsyncAPI message, or a request part of an operation. */
export type SchemaKind = 'schema' | 'message' | 'request';

/**
 * Every validatable name with its schema, sorted by name: component schemas and AsyncAPI messages (the names
 * `casi validate` accepts), plus, with `requests`, the request-part schemas the server stubs validate with.
 */
export function validatableSchemas(
  ir: Ir,
  options: { requests?: boolean } = {},
): { name: string; schema: JsonSchema; kind: SchemaKind }[] {
  const entries = [
    ...ir.schemas.map((s) => ({ name: s.name, schema: s.schema, kind: 'schema' as const })),
    ...ir.events.map((e) => ({ name: e.name, schema: eventSchema(e), kind: 'message' as const })),
    ...(options.requests ? requestPartSchemas(ir).map((r) => ({ ...r, kind: 'request' as const })) : []),
  ];
  const names = new Set<string>();
  for (const { name } of entries) {
    if (names.has(name)) throw new Error(`two schemas are named ${name}`);
    names.add(name);
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Prepares a spec schema for ajv: `#/components/schemas/X` references become `urn:casi:schema:X`, and
 * `discriminator.mapping` (an OpenAPI keyword ajv's discriminator does not take) is dropped — the `const`
 * tags of the members carry the same information.
 */
export function toAjvSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = /#\/components\/schemas\/([^/]+)$/.exec(value)?.[1];
      out[key] = name ? schemaId(name) : value;
    } else if (key === 'discriminator' && value && typeof value === 'object') {
      out[key] = { propertyName: (value as { propertyName?: unknown }).propertyName };
    } else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, toAjvSchema(v)]));
    } else if (key.startsWith('x-') || key === 'example' || key === 'examples' || key === 'default') {
      out[key] = value;
    } else {
      out[key] = toAjvSchema(value);
    }
  }
  return out;
}

/** The spec-only annotation keywords (`x-…`, `example`) used anywhere in the schemas. */
function annotationKeywords(schemas: readonly { schema: JsonSchema }[]): string[] {
  const found = new Set<string>(['example']);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        else walk(value);
      }
  };
  for (const s of schemas) walk(s.schema);
  return [...found].sort();
}

/**
 * Builds a strict Ajv2020 instance holding every schema of the IR under `schemaId(name)`.
 * Union types (`type: [string, 'null']`) are how OpenAPI 3.1 writes nullability, so they are allowed;
 * the spec's annotation keywords are declared as a vocabulary; everything else stays strict. Formats come from
 * `templates/shared/formats.ts`. `allErrors` (default true) lists every problem; false stops at the first one,
 * for a fast verdict. `standalone` also adds the request-part schemas and makes ajv keep the source code.
 */
export function createAjv(ir: Ir, options: { standalone: boolean; allErrors?: boolean }): Ajv {
  const entries = validatableSchemas(ir, { requests: options.standalone });
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    discriminator: true,
    allErrors: options.allErrors ?? true,
    code: options.standalone
      ? { source: true, esm: true, lines: false, optimize: true, formats: _`${new Name(FORMATS_BINDING)}` }
      : { optimize: true },
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  ajv.addVocabulary(annotationKeywords(entries));
  for (const { name, schema, kind } of entries) {
    try {
      ajv.addSchema({ ...(toAjvSchema(schema) as object), $id: schemaId(name) });
    } catch (error) {
      throw new SchemaError(name, kind, (error as Error).message);
    }
  }
  return ajv;
}

/** Compiles every schema of `ajv` (see `createAjv`); throws SchemaError naming the first one that fails. */
export function compileAll(ajv: Ajv, entries: readonly { name: string; kind: SchemaKind }[]): void {
  for (const { name, kind } of entries) {
    try {
      ajv.getSchema(schemaId(name));
    } catch (error) {
      throw new SchemaError(name, kind, (error as Error).message);
    }
  }
}

/** One `allErrors` instance per IR, shared by the check of the examples and the validators' emitter. */
const shared = new WeakMap<Ir, Ajv>();

/** The `allErrors` standalone instance of `ir`: created once, its compiled schemas reused by every later stage. */
export function sharedAjv(ir: Ir): Ajv {
  let ajv = shared.get(ir);
  if (ajv === undefined) {
    ajv = createAjv(ir, { standalone: true });
    shared.set(ir, ajv);
  }
  return ajv;
}
