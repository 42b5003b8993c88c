/**
 * Every validatable schema compiles with the generated validators' ajv setup: what `generate` needs, checked by
 * `check` too, so that a document that passes the check generates. A failure is an error at the schema.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Ir } from '../ir/model.js';
import { type LoadedSpecs, type SourceDocument, valueAt } from '../load/index.js';
import { toPointer } from '../load/source-map.js';
import { compileAll, SchemaError, sharedAjv, validatableSchemas } from '../schema/ajv.js';

const RULE = 'casi/schema-compiles';

/** The diagnostic of the first schema that cannot be compiled, or none. */
export function checkSchemasCompile(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, ir: Ir): Diagnostic[] {
  try {
    compileAll(sharedAjv(ir), validatableSchemas(ir, { requests: true }));
    return [];
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    return [schemaDiagnostic(specs, error)];
  }
}

/**
 * Where a schema of each kind may be written, in order: a component schema in OpenAPI or in AsyncAPI, a message in
 * AsyncAPI (whose payload the validators name after it); request parts are OpenAPI's.
 */
function placesOf(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, error: SchemaError): [SourceDocument, string[]][] {
  const schema = ['components', 'schemas', error.schemaName];
  const message = ['components', 'messages', error.schemaName];
  if (error.kind === 'request') return [[specs.openapi, []]];
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
  const inner = error.kind === 'schema' ? (/at path "#([^"]*)"/.exec(error.reason)?.[1] ?? '') : '';
  const pointer = `${toPointer(named)}${inner}`;
  return {
    severity: 'error',
    file: doc.file,
    ...doc.locate(pointer),
    pointer,
    message: `${error.message.split('\n')[0]}.`,
    rule: RULE,
  };
}
