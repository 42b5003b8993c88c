/** Schemas derived from operations: one object schema per request part, and the schema names of bodies. */
import type { Ir, IrOperation, IrParameter, JsonSchema, ParameterLocation } from '../ir/model.js';
import { pascalCase } from '../names.js';

/** Request parts that get a validator of their own. */
export type RequestPart = 'params' | 'query' | 'headers';

const LOCATION: Record<RequestPart, ParameterLocation> = { params: 'path', query: 'query', headers: 'header' };
const SUFFIX: Record<RequestPart, string> = { params: 'Params', query: 'Query', headers: 'Headers' };

/** Headers the runtime checks itself (with their own error codes) rather than through the schema. */
const RUNTIME_HEADERS = new Set(['service-version']);

/** The parameters of one part (credentials in the query included); header names lower-cased (as Node delivers them), runtime-checked headers left out. */
export function partParameters(op: IrOperation, part: RequestPart): IrParameter[] {
  const params = op.parameters[LOCATION[part]];
  if (part === 'query')
    return [...params, ...op.credentialParameters.filter((c) => !params.some((p) => p.name === c.name))];
  if (part !== 'headers') return [...params];
  return params.map((p) => ({ ...p, name: p.name.toLowerCase() })).filter((p) => !RUNTIME_HEADERS.has(p.name));
}

/** The name of the validator schema of one request part, e.g. `ListConversationsQuery`. */
export function partSchemaName(op: IrOperation, part: RequestPart): string {
  return `${pascalCase(op.id)}${SUFFIX[part]}`;
}

/**
 * The object schema of one request part, or undefined when the part has no parameters. Path and query parts are
 * closed (an unknown query parameter is an error); headers stay open, since every request carries other headers.
 */
export function partSchema(op: IrOperation, part: RequestPart): JsonSchema | undefined {
  const params = partParameters(op, part);
  if (params.length === 0 && part !== 'query') return undefined;
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: part === 'headers',
  };
}

/** The component name a schema is a bare reference to, if it is one. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

/** Every request-part schema of every HTTP, SSE and WebSocket operation, sorted by name. */
export function requestPartSchemas(ir: Ir): { name: string; schema: JsonSchema }[] {
  const out: { name: string; schema: JsonSchema }[] = [];
  for (const op of ir.operations)
    for (const part of ['params', 'query', 'headers'] as const) {
      const schema = partSchema(op, part);
      if (schema) out.push({ name: partSchemaName(op, part), schema });
    }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** How the runtime coerces each non-string query parameter before validation. */
export function queryCoercion(op: IrOperation): Record<string, 'integer' | 'number' | 'boolean'> {
  const out: Record<string, 'integer' | 'number' | 'boolean'> = {};
  for (const p of op.parameters.query) {
    const type = p.schema.type;
    if (type === 'integer' || type === 'number' || type === 'boolean') out[p.name] = type;
  }
  return out;
}
