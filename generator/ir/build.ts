/** The `ir` stage: turns both checked documents into one normalised, sorted model. */
import { InputError } from '../diagnostics.js';
import { type LoadedSpecs, valueAt } from '../load/index.js';
import { buildEvents } from './events.js';
import type { Ir, IrErrorCode, IrSchema, JsonSchema } from './model.js';
import { buildOperations, serviceVersionOf } from './operations.js';

/** Builds the IR. Call it only on documents that passed `check`. */
export function buildIr(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>): Ir {
  const { openapi, asyncapi } = specs;
  const info = (openapi.value.info ?? {}) as Record<string, unknown>;
  return {
    title: String(info.title ?? ''),
    version: String(info.version ?? '0.0.0'),
    serviceVersion: serviceVersionOf(openapi),
    schemas: buildSchemas(openapi.value),
    operations: buildOperations(openapi),
    events: buildEvents(openapi, asyncapi),
    errorCodes: buildErrorCodes(openapi.value),
    openapi: openapi.value as JsonSchema,
  };
}

function buildSchemas(doc: Record<string, unknown>): IrSchema[] {
  const schemas = (valueAt(doc, '/components/schemas') ?? {}) as Record<string, JsonSchema>;
  return Object.keys(schemas)
    .sort()
    .map((name) => {
      const schema = schemas[name] as JsonSchema;
      return { name, schema, inferred: schema['x-casi-inferred'] === true };
    });
}

function buildErrorCodes(doc: Record<string, unknown>): IrErrorCode[] {
  const table = (valueAt(doc, '/components/schemas/ErrorCode/x-casi-error-codes') ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  return Object.entries(table)
    .map(([code, row]) => {
      if (typeof row.status !== 'number') throw new InputError(`ErrorCode table: ${code} needs a numeric status`);
      return {
        code,
        status: row.status,
        transient: row.transient === true,
        description: String(row.description ?? ''),
      };
    })
    .sort((a, b) => a.code.localeCompare(b.code));
}
