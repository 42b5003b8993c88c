/**
 * Every validatable schema compiles with the generated validators' ajv setup: what `generate` needs, checked by
 * `check` too, so that a document that passes the check generates. A failure is an error at the schema.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Ir } from '../ir/model.js';
import type { LoadedSpecs, SourceDocument } from '../load/index.js';
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

/** Where each kind of schema is written: component schemas and request parts in OpenAPI, messages in AsyncAPI. */
const WRITTEN_AT = { schema: ['components', 'schemas'], message: ['components', 'messages'], request: [] } as const;

/** Places the error at the schema (and, where ajv names one, at the keyword inside a component schema). */
export function schemaDiagnostic(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>, error: SchemaError): Diagnostic {
  const doc: SourceDocument = error.kind === 'message' ? specs.asyncapi : specs.openapi;
  const inner = error.kind === 'schema' ? (/at path "#([^"]*)"/.exec(error.reason)?.[1] ?? '') : '';
  const named = error.kind === 'request' ? [] : [...WRITTEN_AT[error.kind], error.schemaName];
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
