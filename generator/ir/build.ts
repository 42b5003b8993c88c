/** The `ir` stage: turns both checked documents into one normalised, sorted model. */
import { basename } from 'node:path';
import { InputError } from '../diagnostics.js';
import { type LoadedSpecs, valueAt } from '../load/index.js';
import { readChannels } from './channels.js';
import { buildEvents, isEnvelopeMessage } from './events.js';
import { readAsyncApi } from './messages.js';
import type { Ir, IrErrorCode, IrOperation, IrSchema, IrWarning, JsonSchema } from './model.js';
import { asJsonSchemaDialect } from './openapi30.js';
import { buildOperations, buildSecuritySchemes, serviceVersionOf } from './operations.js';

/** Builds the IR. Call it only on documents that passed `check`. */
export function buildIr(specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>): Ir {
  const asyncapi = specs.asyncapi;
  const warnings: IrWarning[] = [];
  const warn = (w: IrWarning) => warnings.push(w);
  const openapi = { ...specs.openapi, value: asJsonSchemaDialect(specs.openapi.value, warn) };
  const info = (specs.openapi.absent ? asyncapi.value.info : (openapi.value.info ?? {})) as Record<string, unknown>;
  const own = buildSchemas(openapi.value);
  const model = readAsyncApi(asyncapi, new Set(own.map((s) => s.name)), isEnvelopeMessage, warn);
  const named = new Map([...own, ...model.schemas].map((s) => [s.name, s.schema]));
  const channels = readChannels(asyncapi, model.messages, (name) => named.get(name), new Set(named.keys()), warn);
  const asyncSchemas = [...model.schemas, ...channels.schemas];
  const added = asyncSchemas.map(({ name, schema }) => ({ name, schema, inferred: false }));
  const operations = buildOperations(openapi, warn);
  return {
    documents: [specs.openapi, asyncapi].filter((doc) => !doc.absent).map((doc) => basename(doc.file)),
    title: String(info.title ?? ''),
    packageName: typeof info['x-casi-package-name'] === 'string' ? info['x-casi-package-name'] : undefined,
    version: String(info.version ?? '0.0.0'),
    serviceVersion: serviceVersionOf(openapi),
    schemas: [...own, ...added].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    operations,
    securitySchemes: buildSecuritySchemes(openapi),
    events: buildEvents(openapi, asyncapi),
    messages: model.messages,
    channels: channels.channels,
    errorCodes: buildErrorCodes(openapi.value),
    openapi: withUniqueOperationIds(withSchemas(specs.openapi.value, asyncSchemas), operations) as JsonSchema,
    warnings,
  };
}

/** The OpenAPI document with `schemas` added to its component schemas (for the REST types, which read it whole). */
function withSchemas(doc: Record<string, unknown>, schemas: readonly { name: string; schema: JsonSchema }[]) {
  if (schemas.length === 0) return doc;
  const components = (doc.components ?? {}) as Record<string, unknown>;
  const own = (components.schemas ?? {}) as Record<string, unknown>;
  const all = { ...own, ...Object.fromEntries(schemas.map((s) => [s.name, s.schema])) };
  return { ...doc, components: { ...components, schemas: all } };
}

/**
 * The OpenAPI document with each operationId the IR had to number (one given twice) set to the IR's: the REST
 * types key operations by their id, and would give both operations the types of one.
 */
function withUniqueOperationIds(doc: Record<string, unknown>, operations: readonly IrOperation[]) {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const renamed = operations.filter((op) => {
    const given = paths[op.path]?.[op.method]?.operationId;
    return typeof given === 'string' && given !== op.id;
  });
  if (renamed.length === 0) return doc;
  const copy = structuredClone(doc);
  const copied = copy.paths as typeof paths;
  for (const op of renamed) {
    const operation = copied[op.path]?.[op.method];
    if (operation) operation.operationId = op.id;
  }
  return copy;
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
