/**
 * Every validatable schema compiles with the generated validators' ajv setup: what `generate` needs, checked by
 * `check` too, so that a document that passes the check generates. A failure is an error at the schema.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Ir, JsonSchema } from '../ir/model.js';
import { type LoadedSpecs, type SourceDocument, valueAt } from '../load/index.js';
import { placeOf, pointerTokens, toPointer } from '../load/source-map.js';
import {
  compileAll,
  createAjv,
  documentRef,
  SchemaError,
  sharedAjv,
  toAjvSchema,
  validatableSchemas,
} from '../schema/ajv.js';
import { type RequestPartSchema, requestPartSchemas } from '../schema/operations.js';

const RULE = 'casi/schema-compiles';

/** The diagnostic of the first schema that cannot be compiled, or none. */
export function checkSchemasCompile(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, ir: Ir): Diagnostic[] {
  try {
    compileAll(sharedAjv(ir), validatableSchemas(ir, { requests: true }));
    return [];
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    const part = error.kind === 'request' ? requestPartSchemas(ir).find((p) => p.name === error.schemaName) : undefined;
    return [part === undefined ? schemaDiagnostic(specs, error) : requestDiagnostic(specs.openapi, ir, part, error)];
  }
}

/**
 * Where a schema of each kind may be written, in order: a component schema in OpenAPI or in AsyncAPI, a message in
 * AsyncAPI (whose payload the validators name after it).
 */
function placesOf(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, error: SchemaError): [SourceDocument, string[]][] {
  const schema = ['components', 'schemas', error.schemaName];
  const message = ['components', 'messages', error.schemaName];
  if (error.kind === 'message')
    return [
      [specs.asyncapi, message],
      [specs.asyncapi, schema],
    ];
  return [
    [specs.openapi, schema],
    [specs.asyncapi, schema],
    [specs.asyncapi, message],
  ];
}

/** Places the error at the schema (and, where ajv names one, at the keyword inside a component schema). */
export function schemaDiagnostic(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, error: SchemaError): Diagnostic {
  const places = placesOf(specs, error).filter(([doc]) => doc.absent !== true);
  const [doc, named] = places.find(
    ([d, tokens]) => tokens.length === 0 || valueAt(d.value, toPointer(tokens)) !== undefined,
  ) ??
    places[0] ?? [specs.openapi, []];
  const inner = error.kind === 'schema' ? innerPointer(error.reason) : '';
  return located(doc, `${toPointer(named)}${inner}`, `the ${error.kind} ${error.schemaName}`, error.reason);
}

/**
 * Places the error of a request part at the schema the document writes: a body's or an answer's, or the parameter's
 * whose schema fails (named by ajv's message, else found by compiling each alone), else the operation.
 */
function requestDiagnostic(doc: SourceDocument, ir: Ir, part: RequestPartSchema, error: SchemaError): Diagnostic {
  const inner = innerPointer(error.reason);
  if (part.members === undefined)
    return located(doc, `${part.pointer}${inner}`, `the schema of ${part.label}`, error.reason);
  const [properties, name, ...rest] = pointerTokens(inner);
  const named = properties === 'properties' && name !== undefined ? name : undefined;
  const member = named ?? failingMember(ir, part.schema);
  const at = member === undefined ? undefined : part.members[member];
  if (member === undefined || at === undefined)
    return located(doc, part.pointer, `the schema of ${part.label}`, error.reason);
  const within = named === undefined ? '' : toPointer(rest);
  return located(doc, `${at}${within}`, `the schema of ${member} in ${part.label}`, error.reason);
}

/** The diagnostic at `pointer`: `subject` (a schema, by name or place) cannot be compiled, and ajv's `reason`. */
function located(doc: SourceDocument, pointer: string, subject: string, reason: string): Diagnostic {
  return {
    severity: 'error',
    ...placeOf(doc, pointer),
    message: `${subject} cannot be compiled: ${documentReason(withoutRepeats(reason.split('\n')[0] ?? ''))}.`,
    rule: RULE,
  };
}

/**
 * The place inside the schema that ajv's message names: `at path "#/…"`, or the `data/…` of a schema the JSON Schema
 * meta-schema refuses; else none.
 */
function innerPointer(reason: string): string {
  return /at path "#([^"]*)"/.exec(reason)?.[1] ?? /^schema is invalid: data(\/[^ ,]*) /.exec(reason)?.[1] ?? '';
}

/** ajv's reason in the document's terms: a reference it cannot resolve is named as the document writes it. */
function documentReason(reason: string): string {
  const missing = /can't resolve reference (\S+) from id \S+/.exec(reason)?.[1];
  return missing === undefined ? reason : `its $ref "${documentRef(missing)}" names nothing`;
}

/** ajv's list of problems with each one once (a meta-schema error repeats one per branch it tried). */
function withoutRepeats(reason: string): string {
  const lead = /^schema is invalid: /.exec(reason)?.[0] ?? '';
  return `${lead}${[...new Set(reason.slice(lead.length).split(', '))].join(', ')}`;
}

/**
 * The member of a request part's object schema that cannot be compiled alone, with the component schemas beside
 * it; undefined when each compiles (or the components themselves do not).
 */
function failingMember(ir: Ir, schema: JsonSchema): string | undefined {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  let ajv: ReturnType<typeof createAjv>;
  try {
    ajv = createAjv(ir, { standalone: false, allErrors: false });
  } catch {
    return undefined;
  }
  const components = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  return Object.keys(properties).find((name) => {
    try {
      ajv.compile(toAjvSchema(properties[name], (n) => components.get(n)) as object);
      return false;
    } catch {
      return true;
    }
  });
}
