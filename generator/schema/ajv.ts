/** One ajv (JSON Schema 2020-12) setup for every schema of the spec: used to precompile and by `casi validate`. */
import { createRequire } from 'node:module';
import { formats } from '../../templates/shared/formats.js';
import { eventSchema } from '../ir/events.js';
import type { Ir, JsonSchema } from '../ir/model.js';
import { packages } from '../packages.js';
import { requestPartSchemas } from './operations.js';
import { precompiled, type Verdict } from './precompiled.mjs';

// ajv is CommonJS with a default export.
const { _, Name, default: Ajv2020 } = packages.ajv2020;
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
 * `validated` skips checking the schemas against the JSON Schema meta-schema, for schemas another instance has
 * just checked.
 */
export function createAjv(ir: Ir, options: { standalone: boolean; allErrors?: boolean; validated?: boolean }): Ajv {
  const entries = validatableSchemas(ir, { requests: options.standalone });
  const metaSchema = options.validated ? undefined : metaSchemaVerdict();
  const ajv = new Ajv2020({
    ...STRICTNESS,
    allErrors: options.allErrors ?? true,
    // Checked below, with the precompiled meta-schema.
    validateSchema: false,
    code: options.standalone
      ? { source: true, esm: true, lines: false, optimize: true, formats: _`${new Name(FORMATS_BINDING)}` }
      : { optimize: true },
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  ajv.addVocabulary(annotationKeywords(entries));
  for (const { name, schema } of entries) {
    const prepared = { ...(toAjvSchema(schema) as object), $id: schemaId(name) };
    // ajv's own check reports (throws) what the precompiled verdict refuses, and checks other meta-schemas.
    if (metaSchema && ('$schema' in prepared || !metaSchema(prepared))) ajv.validateSchema(prepared, true);
    ajv.addSchema(prepared);
  }
  return ajv;
}

/** The options of every instance here that decide which schemas ajv accepts. */
const STRICTNESS = { strict: true, allowUnionTypes: true, discriminator: true } as const;

/**
 * ajv's verdict on a schema against its default meta-schema (JSON Schema 2020-12), precompiled (see
 * precompiled.mjs): ajv would compile the meta-schema in every process, about 50 ms, to check the spec's schemas.
 * The meta-schema's code does not depend on the formats or `allErrors`. It is compiled apart from the instances
 * that compile the spec's schemas, so that the names in their code do not depend on the cache.
 */
export function metaSchemaVerdict(): Verdict {
  const from = createRequire(import.meta.url);
  const compile = () => {
    const ajv = new Ajv2020({ ...STRICTNESS, allErrors: false, code: { source: true, lines: false, optimize: true } });
    const validate = ajv.getSchema(META_SCHEMA) as unknown as Verdict;
    return { ajv, validate, standalone: packages.ajvStandalone.default };
  };
  const key = `ajv ${from('ajv/package.json').version} ${JSON.stringify(STRICTNESS)}`;
  return precompiled({ folder: 'meta-schema', key, schema: META_SCHEMA, compile, from });
}

/** The `$id` of ajv's default meta-schema for JSON Schema 2020-12. */
const META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

/** Instances whose schemas are compiled already, by IR: the validators' emitter shares its `allErrors` one. */
const compiled = new WeakMap<Ir, Ajv>();

/** Lets later stages validate with `ajv`, whose schemas for `ir` are compiled (see `compiledAjv`). */
export function shareCompiledAjv(ir: Ir, ajv: Ajv): void {
  compiled.set(ir, ajv);
}

/** The shared instance for `ir` when the validators have been compiled, else a new one (`allErrors`). */
export function compiledAjv(ir: Ir): Ajv {
  return compiled.get(ir) ?? createAjv(ir, { standalone: false });
}
