/** One ajv (JSON Schema 2020-12) setup for every schema of the spec: used to precompile and by `casi validate`. */
import type Ajv2020Module from 'ajv/dist/2020.js';
import { formats, patternRegExp } from '../../templates/shared/formats.js';
import { InputError } from '../diagnostics.js';
import { eventSchema } from '../ir/events.js';
import type { Ir, JsonSchema } from '../ir/model.js';
import { schemaCodeNames } from '../names.js';
import { requirePackage } from '../require-package.js';
import { componentName, pointerToken } from './component-ref.js';
import { taggedUnion } from './discriminator-tags.js';
import { requestPartSchemas } from './operations.js';

const { _, Ajv2020, Name } = requirePackage('ajv/dist/2020') as typeof Ajv2020Module;

type Ajv = InstanceType<typeof Ajv2020>;

/**
 * The name standalone code gives the `formats` object of `templates/shared/formats.ts`: the emitter imports it
 * under this name, so the precompiled validators run the same format code as `casi validate`.
 */
export const FORMATS_BINDING = 'casiFormats';

/** The name standalone code gives `patternRegExp` of `templates/shared/formats.ts`, imported as the formats are. */
export const PATTERN_BINDING = 'casiPattern';

/** ajv's engine for `pattern`: `patternRegExp`, which standalone code calls under `PATTERN_BINDING`. */
const regExp = Object.assign((pattern: string, flags: string) => patternRegExp(pattern, flags), {
  code: PATTERN_BINDING,
});

/** The `$id` under which a component schema or a message is registered. */
export function schemaId(name: string): string {
  return `urn:casi:schema:${encodeURIComponent(name)}`;
}

/**
 * The reference a document writes for an id of `schemaId`, `#/components/schemas/X`; any other reference (one the
 * load stage left, which names nothing) as it is.
 */
export function documentRef(id: string): string {
  const name = /^urn:casi:schema:([^#]*)$/.exec(id)?.[1];
  if (name === undefined) return id;
  return `#/components/schemas/${pointerToken(name).replace(/~/g, '~0').replace(/\//g, '~1')}`;
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
): { name: string; code: string; schema: JsonSchema; kind: SchemaKind }[] {
  const code = schemaCodeNames(ir);
  const entries = [
    ...ir.schemas.map((s) => ({ name: s.name, schema: s.schema, kind: 'schema' as const })),
    ...ir.events.map((e) => ({ name: e.name, schema: eventSchema(e), kind: 'message' as const })),
    ...(options.requests ? requestPartSchemas(ir).map((r) => ({ ...r, kind: 'request' as const })) : []),
  ].map((e) => ({ ...e, code: code.get(e.name) ?? e.name }));
  const names = new Set<string>();
  for (const { code } of entries) {
    if (names.has(code)) throw new InputError(`two schemas would both be validated by validate${code}`);
    names.add(code);
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** The component schema a name stands for, where one is known. */
export type SchemaLookup = (name: string) => unknown;

/**
 * Prepares a spec schema for ajv: `#/components/schemas/X` references become `urn:casi:schema:X` (the load stage
 * has made every schema a reference names a component schema: load/pointed-schemas.ts), `$schema`, `$async` and
 * `nullable` (no JSON Schema keywords, but ajv knows them) are dropped,
 * and `discriminator.mapping` (an OpenAPI keyword ajv's discriminator does not take) is dropped — the `const`
 * tags of the members carry the same information. Where the members do not fix their tags but are references to
 * component schemas, each becomes that reference with its tags as OpenAPI reads them (`taggedUnion`) required as an
 * `enum`, in a `oneOf` (at most one member can match, `anyOf` included), so that a value is judged by the member its
 * tag names, as the REST types say. Any other discriminator is dropped: it is a hint, and the schema's
 * `oneOf`/`anyOf`/`allOf` validate as JSON Schema says.
 */
export function toAjvSchema(schema: unknown, lookup: SchemaLookup = () => undefined): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toAjvSchema(item, lookup));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const takes = node.discriminator !== undefined && ajvTakesDiscriminator(node, lookup);
  const tagged = node.discriminator === undefined || takes ? undefined : taggedUnion(node);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') {
      out[key] = ajvRef(value);
    } else if (tagged !== undefined && key === tagged.keyword) {
      out.oneOf = tagged.members.map(({ ref, tags }) => ({
        $ref: ajvRef(ref),
        properties: { [tagged.property]: { enum: tags } },
        required: [tagged.property],
      }));
    } else if (key === 'discriminator' && value && typeof value === 'object') {
      if (takes || tagged !== undefined)
        out[key] = { propertyName: (value as { propertyName?: unknown }).propertyName };
    } else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, toAjvSchema(v, lookup)]));
    } else if (key === '$schema' || key === '$async') {
      // A dialect named inside a schema (an AsyncAPI payload's draft-07, say): every schema is read as 2020-12, which
      // ajv only knows the meta-schema of. `$async` is ajv's, not JSON Schema's: it would make a validator a promise.
    } else if (key === 'nullable') {
      // Left by 3.0 documents only where it is not a boolean, and an annotation in 3.1 and AsyncAPI.
    } else if (key.startsWith('x-') || ANNOTATIONS.has(key)) {
      out[key] = value;
    } else {
      out[key] = toAjvSchema(value, lookup);
    }
  }
  return out;
}

/** A reference as ajv finds it: `#/components/schemas/X` as `urn:casi:schema:X`, any other as it is. */
function ajvRef(ref: string): string {
  const name = componentName(ref);
  return name === undefined ? ref : schemaId(name);
}

/**
 * Whether ajv's `discriminator` keyword compiles on `schema`: a `oneOf` beside it whose every member (itself, or the
 * component it references) fixes the property with a string `const` or `enum`, the values unique, the property
 * required. The other forms OpenAPI allows are read by `taggedUnion`, or left to JSON Schema (an `allOf` base).
 */
function ajvTakesDiscriminator(schema: Record<string, unknown>, lookup: SchemaLookup): boolean {
  const tag = (schema.discriminator as { propertyName?: unknown }).propertyName;
  if (typeof tag !== 'string' || !Array.isArray(schema.oneOf)) return false;
  const requires = (node: Record<string, unknown>) => Array.isArray(node.required) && node.required.includes(tag);
  const seen = new Set<unknown>();
  let required = true;
  for (const item of schema.oneOf as unknown[]) {
    const member = resolved(item, lookup);
    const property = (member?.properties as Record<string, unknown> | undefined)?.[tag] as
      | { const?: unknown; enum?: unknown }
      | undefined;
    if (member === undefined || property === undefined || property === null) return false;
    const values = property.const ? [property.const] : Array.isArray(property.enum) ? property.enum : [];
    if (values.length === 0) return false;
    for (const value of values) {
      if (typeof value !== 'string' || seen.has(value)) return false;
      seen.add(value);
    }
    required &&= requires(schema) || requires(member);
  }
  return required;
}

/** A `oneOf` member as ajv's discriminator reads it: the component a bare `$ref` names, else the member itself. */
function resolved(item: unknown, lookup: SchemaLookup): Record<string, unknown> | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const node = item as Record<string, unknown>;
  if (typeof node.$ref !== 'string' || 'properties' in node) return node;
  const name = componentName(node.$ref);
  const target = name === undefined ? undefined : lookup(name);
  return target && typeof target === 'object' ? (target as Record<string, unknown>) : undefined;
}

/** The formats the schemas use that the runtime has no check for: annotations, as JSON Schema makes them. */
function unknownFormats(schemas: readonly { schema: JsonSchema }[]): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === 'format' && typeof value === 'string' && !(value in formats)) found.add(value);
        else if (!ANNOTATIONS.has(key)) walk(value);
      }
  };
  for (const s of schemas) walk(s.schema);
  return [...found].sort();
}

/** Whether a schema names a property that every object inherits (`constructor`, `toString`, `__proto__`, …). */
function namesPrototypeMember(schemas: readonly { schema: JsonSchema }[]): boolean {
  const inherited = (name: unknown) => typeof name === 'string' && name in Object.prototype;
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(walk);
    if (!node || typeof node !== 'object') return false;
    return Object.entries(node).some(([key, value]) => {
      if (ANNOTATIONS.has(key)) return false;
      if (key === 'properties' && value && typeof value === 'object' && Object.keys(value).some(inherited)) return true;
      if (key === 'required' && Array.isArray(value) && value.some(inherited)) return true;
      return walk(value);
    });
  };
  return schemas.some((s) => walk(s.schema));
}

/** Keywords whose values are data: a `format` or `$ref` member inside them is not a keyword. */
const ANNOTATIONS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * Builds an Ajv2020 instance holding every schema of the IR under `schemaId(name)`. It takes any valid schema, as
 * JSON Schema reads it: keywords it does not know (`xml`, `discriminator.mapping`, `example`, `x-…`) and formats
 * the runtime does not check (`int64`, `binary`, …) are annotations, and union types are allowed. Formats come
 * from `templates/shared/formats.ts`. `allErrors` (default true) lists every problem; false stops at the first one,
 * for a fast verdict; `verbose` keeps each error's schema (for messages that list what was allowed). `standalone` also adds the request-part schemas and makes ajv keep the source code.
 * `checked`: another instance has taken the same schemas already, so they are not checked against the JSON Schema
 * meta-schema again (compiling it costs more than a small document's schemas).
 */
export function createAjv(
  ir: Ir,
  options: { standalone: boolean; allErrors?: boolean; verbose?: boolean; checked?: boolean },
): Ajv {
  // Request parts give their formats always (a run-time user, `casi serve`, compiles them later against this
  // instance); they are added as schemas for the standalone code only.
  const parts = validatableSchemas(ir, { requests: true });
  const entries = options.standalone ? parts : parts.filter((e) => e.kind !== 'request');
  const ajv = new Ajv2020({
    strict: false,
    // Numbers must be finite, as JSON's are (strict mode's default, kept).
    strictNumbers: true,
    allowUnionTypes: true,
    // A property named like a member of every object (`constructor`, `toString`) must be read from the value itself,
    // not from Object.prototype (where every value has one); checking that costs every property, so only then.
    ownProperties: namesPrototypeMember(parts),
    discriminator: true,
    // ajv's console warnings (an unknown format in a schema compiled later, such as an octet-stream body's `binary`
    // for its example) are no diagnostics: casi reports what matters itself.
    logger: false,
    allErrors: options.allErrors ?? true,
    verbose: options.verbose ?? false,
    validateSchema: !options.checked,
    code: options.standalone
      ? { source: true, esm: true, lines: true, optimize: true, regExp, formats: _`${new Name(FORMATS_BINDING)}` }
      : { optimize: true, regExp },
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  for (const name of unknownFormats(parts)) ajv.addFormat(name, true);
  const byName = new Map(entries.map((e) => [e.name, e.schema]));
  const lookup: SchemaLookup = (name) => byName.get(name);
  for (const { name, schema, kind } of entries) {
    try {
      ajv.addSchema({ ...(toAjvSchema(schema, lookup) as object), $id: schemaId(name) });
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
