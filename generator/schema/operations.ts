/**
 * Schemas derived from operations: one object schema per request part, the schemas of bodies validated by the
 * server, and how the server decodes parameters and non-JSON bodies before validating them.
 */

import type {
  ParameterDecoding,
  QueryCoercion,
  RequestMedia,
  Scalar,
  ValueShape,
} from '../../templates/server/route.js';
import { mediaKind } from '../../templates/shared/media.js';
import type { Ir, IrOperation, IrParameter, IrResponse, JsonSchema, ParameterLocation } from '../ir/model.js';
import { pascalCase } from '../names.js';
import { declaredType } from './declared-type.js';

/** Request parts that get a validator of their own. */
export type RequestPart = 'params' | 'query' | 'headers' | 'cookies';

const LOCATION: Record<RequestPart, ParameterLocation> = {
  params: 'path',
  query: 'query',
  headers: 'header',
  cookies: 'cookie',
};
const SUFFIX: Record<RequestPart, string> = {
  params: 'Params',
  query: 'Query',
  headers: 'Headers',
  cookies: 'Cookies',
};

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
 * closed (an unknown query parameter is an error); headers and cookies stay open, since requests carry others.
 */
export function partSchema(op: IrOperation, part: RequestPart): JsonSchema | undefined {
  const params = partParameters(op, part);
  if (params.length === 0 && part !== 'query') return undefined;
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: part === 'headers' || part === 'cookies',
  };
}

/** The component name a schema is a bare reference to, if it is one. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

/** A schema `requestPartSchemas` lists: its validator name, and what and where it is in the OpenAPI document. */
export interface RequestPartSchema {
  readonly name: string;
  readonly schema: JsonSchema;
  /** What it is, for messages: `the query parameters of GET /things`, `the request body of POST /things`. */
  readonly label: string;
  /** Where it is written: the schema of a body or an answer; the operation, for a request part. */
  readonly pointer: string;
  /** For a request part: where each parameter's schema is written, by its member name. */
  readonly members?: Readonly<Record<string, string | undefined>>;
}

const PART_LABEL: Record<RequestPart, string> = {
  params: 'path parameters',
  query: 'query parameters',
  headers: 'header parameters',
  cookies: 'cookie parameters',
};

/**
 * Every request-part schema of every HTTP, SSE and WebSocket operation, and every validated body schema written in
 * place (not a component reference): request bodies and text responses, sorted by name.
 */
export function requestPartSchemas(ir: Ir): RequestPartSchema[] {
  const out: RequestPartSchema[] = [];
  const components = componentsOf(ir);
  for (const op of ir.operations) {
    const of = `of ${op.method.toUpperCase()} ${op.path}`;
    for (const part of ['params', 'query', 'headers', 'cookies'] as const) {
      const schema = partSchema(op, part);
      const members = Object.fromEntries(partParameters(op, part).map((p) => [p.name, p.schemaPointer]));
      if (schema)
        out.push({
          name: partSchemaName(op, part),
          schema,
          label: `the ${PART_LABEL[part]} ${of}`,
          pointer: op.pointer,
          members,
        });
    }
    const body = validatedBodySchema(op, components);
    if (body !== undefined && refName(body) === undefined)
      out.push({
        name: bodySchemaName(op),
        schema: body,
        label: `the request body ${of}`,
        pointer: op.requestBody?.schemaPointer ?? op.pointer,
      });
    for (const response of op.responses) {
      const schema = validatedResponseSchema(op, response, components);
      if (schema !== undefined && refName(schema) === undefined)
        out.push({
          name: responseSchemaName(op, response),
          schema,
          label: `the ${response.status} answer ${of}`,
          pointer: response.schemaPointer ?? op.pointer,
        });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Component schemas by name, to follow references. */
export type Components = ReadonlyMap<string, JsonSchema>;

/** The component schemas of `ir` by name. */
export function componentsOf(ir: Pick<Ir, 'schemas'>): Components {
  return new Map(ir.schemas.map((s) => [s.name, s.schema]));
}

/** `schema` with its component references followed (a few levels; a cycle stops at the reference). */
function resolved(schema: JsonSchema | undefined, components: Components): JsonSchema {
  let current = schema ?? {};
  for (let hops = 0; hops < 8; hops++) {
    const name = refName(current);
    const target = name === undefined ? undefined : components.get(name);
    if (target === undefined) return current;
    current = target;
  }
  return current;
}

/**
 * The schema's type as `declaredType` reads it, but never `null`; of a union (`oneOf`/`anyOf`), its first branch's
 * (`boolean | string[]` reads `false` as a boolean); undefined when it says none.
 */
function typeOf(schema: JsonSchema, components: Components, depth = 0): string | undefined {
  const declared = declaredType(schema);
  if (declared !== undefined && declared !== 'null') return declared;
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches) || depth > 8) return undefined;
  for (const branch of branches) {
    const found = typeOf(resolved(branch as JsonSchema, components), components, depth + 1);
    if (found !== undefined && found !== 'null') return found;
  }
  return undefined;
}

/** The primitive a text value of `schema` is coerced to (`string` for anything else). */
function scalarOf(schema: JsonSchema | undefined, components: Components): Scalar {
  const type = typeOf(resolved(schema, components), components);
  return type === 'integer' || type === 'number' || type === 'boolean' ? type : 'string';
}

/**
 * The shape a text value of `schema` decodes to. Parameters (`json` false) have arrays of primitives and objects of
 * primitives; form fields (`json` true) carry objects and arrays of objects as JSON text.
 */
export function shapeOf(schema: JsonSchema | undefined, components: Components, json: boolean): ValueShape {
  const target = resolved(schema, components);
  const type = typeOf(target, components);
  if (type === 'array') {
    const items = resolved(target.items as JsonSchema | undefined, components);
    const itemType = typeOf(items, components);
    if (json && (itemType === 'object' || itemType === 'array')) return { json: true };
    return { items: scalarOf(items, components) };
  }
  if (type === 'object') {
    if (json) return { json: true };
    const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
    return {
      properties: Object.fromEntries(
        Object.keys(properties).map((name) => [name, scalarOf(properties[name], components)]),
      ),
    };
  }
  return { type: scalarOf(target, components) };
}

/** How deep a deep object's nested members are read; deeper ones stay strings. */
const DEEP_OBJECT_DEPTH = 4;

/**
 * The shape of a `deepObject` parameter: an object's shape with the shapes of its object and array members, nested
 * as `name[a][b]=1` and repeated as `name[a]=1&name[a]=2` travel.
 */
function deepShapeOf(schema: JsonSchema | undefined, components: Components, depth = 0): ValueShape {
  const shape = shapeOf(schema, components, false);
  if (!('properties' in shape) || depth >= DEEP_OBJECT_DEPTH) return shape;
  const properties = (resolved(schema, components).properties ?? {}) as Record<string, JsonSchema>;
  const members: Record<string, ValueShape> = {};
  for (const [name, member] of Object.entries(properties)) {
    const type = typeOf(resolved(member, components), components);
    if (type === 'object') members[name] = deepShapeOf(member, components, depth + 1);
    else if (type === 'array') members[name] = shapeOf(member, components, false);
  }
  return Object.keys(members).length === 0 ? shape : { ...shape, members };
}

/** Whether a query parameter is an exploded `form` object without declared members (`?a=1&b=2` → `{ a, b }`). */
function isFreeForm(p: IrParameter, components: Components): boolean {
  const shape = shapeOf(p.schema, components, false);
  const style = p.style ?? 'form';
  return style === 'form' && (p.explode ?? true) && 'properties' in shape && Object.keys(shape.properties).length === 0;
}

/** Whether a shape is a plain string, which needs no decoding. */
function isString(shape: ValueShape): boolean {
  return 'type' in shape && shape.type === 'string';
}

/**
 * The parameters the server must decode beyond the query coercion, by location and name: every array or object,
 * every JSON `content` parameter, every non-string path, header or cookie value, every path or header parameter of another style than `simple`.
 * Header names are lower-cased.
 */
export function parameterDecodings(
  op: IrOperation,
  components: Components,
): Partial<Record<ParameterLocation, Record<string, ParameterDecoding>>> {
  const out: Partial<Record<ParameterLocation, Record<string, ParameterDecoding>>> = {};
  for (const location of ['path', 'query', 'header', 'cookie'] as const) {
    const decodings: Record<string, ParameterDecoding> = {};
    const params = location === 'query' ? partParameters(op, 'query') : op.parameters[location];
    // An exploded object without declared members takes every name no other parameter has: all are listed then.
    const listAll = location === 'query' && params.some((p) => isFreeForm(p, components));
    for (const p of params) {
      const form = location === 'query' || location === 'cookie';
      const style = p.style ?? (form ? 'form' : 'simple');
      const shape: ValueShape = p.json
        ? { json: true }
        : style === 'deepObject'
          ? deepShapeOf(p.schema, components)
          : shapeOf(p.schema, components, false);
      const needed =
        location === 'query' ? listAll || !('type' in shape) : !isString(shape) || style !== (form ? 'form' : 'simple');
      if (!needed) continue;
      const name = location === 'header' ? p.name.toLowerCase() : p.name;
      decodings[name] = { style, explode: p.explode ?? style === 'form', shape };
    }
    if (Object.keys(decodings).length > 0) out[location] = decodings;
  }
  return out;
}

/** The declared request media type of an operation whose body is not JSON, with its form fields' shapes. */
export function requestMedia(op: IrOperation, components: Components): RequestMedia | undefined {
  const body = op.requestBody;
  if (body === undefined || mediaKind(body.contentType) === 'json') return undefined;
  return mediaOf(body.contentType, body.schema, components);
}

/** The other media types the server accepts the body as (`otherContentTypes`), each with its fields' shapes. */
export function otherRequestMedia(op: IrOperation, components: Components): RequestMedia[] {
  const body = op.requestBody;
  return (body?.otherContentTypes ?? []).map((type) => mediaOf(type, body?.schema ?? {}, components));
}

/** A body's media type `type` with `schema`: its kind, and for a form or multipart the shapes of its fields. */
function mediaOf(type: string, schema: JsonSchema, components: Components): RequestMedia {
  const kind = mediaKind(type);
  if (kind !== 'form' && kind !== 'multipart') return { type, kind };
  const properties = (resolved(schema, components).properties ?? {}) as Record<string, JsonSchema>;
  const fields = Object.entries(properties)
    .map(([name, field]) => [name, shapeOf(field, components, true)] as const)
    .filter(([, shape]) => !isString(shape));
  return { type, kind, ...(fields.length > 0 ? { fields: Object.fromEntries(fields) } : {}) };
}

/** Whether a body of `kind` with `schema` is validated: never bytes; text only when its schema has a type. */
function isValidated(kind: string, schema: JsonSchema | undefined, components: Components): schema is JsonSchema {
  if (schema === undefined || Object.keys(schema).length === 0 || kind === 'binary') return false;
  if (kind === 'text') return typeOf(resolved(schema, components), components) !== undefined;
  return kind !== 'event-stream';
}

/** The request body schema the server validates, or undefined (see `isValidated`). */
export function validatedBodySchema(op: IrOperation, components: Components): JsonSchema | undefined {
  const body = op.requestBody;
  if (body === undefined) return undefined;
  return isValidated(mediaKind(body.contentType), body.schema, components) ? body.schema : undefined;
}

/**
 * The response body schema checked when responses are validated: JSON (any `+json` too), typed text, and the item
 * schema of an `http` operation's event stream (each item is checked).
 */
export function validatedResponseSchema(
  op: IrOperation,
  response: IrResponse,
  components: Components,
): JsonSchema | undefined {
  if (response.contentType === undefined) return undefined;
  const kind = mediaKind(response.contentType);
  if (kind === 'event-stream' && op.transport === 'http')
    return isValidated('json', response.schema, components) ? response.schema : undefined;
  if (kind !== 'json' && kind !== 'text') return undefined;
  return isValidated(kind, response.schema, components) ? response.schema : undefined;
}

/** The validator schema name of a request body written in place, e.g. `UploadFileBody`. */
export function bodySchemaName(op: IrOperation): string {
  return `${pascalCase(op.id)}Body`;
}

/** The validator schema name of a response body written in place, e.g. `GetReadmeResponse200`. */
export function responseSchemaName(op: IrOperation, response: IrResponse): string {
  return `${pascalCase(op.id)}Response${pascalCase(response.status)}`;
}

/**
 * How the runtime coerces each non-string query parameter before validation: by its schema's type, through `$ref`s
 * and unions (`boolean | string[]` coerces `false`).
 */
export function queryCoercion(op: IrOperation, components: Components): Record<string, QueryCoercion> {
  const out: Record<string, QueryCoercion> = {};
  for (const p of op.parameters.query) {
    const type = scalarOf(p.schema, components);
    if (type !== 'string') out[p.name] = type;
  }
  return out;
}
