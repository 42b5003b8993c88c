/** Reads spec/openapi.yaml and spec/asyncapi.yaml into the example cases the generated package is tested with. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

/** A YAML value as plain data. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A YAML mapping. */
export type JsonObject = { [key: string]: Json };

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** Whether `value` is a mapping. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function load(file: string): JsonObject {
  const doc: unknown = parse(readFileSync(resolve(ROOT, file), 'utf8'));
  if (!isObject(doc)) throw new TypeError(`${file} is not a mapping`);
  return doc;
}

/** The OpenAPI document. */
export const openapi = load('spec/openapi.yaml');
/** The AsyncAPI document. */
export const asyncapi = load('spec/asyncapi.yaml');

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The mapping at `key` of `node`, or an empty one. */
function objectAt(node: Json | undefined, key: string): JsonObject {
  const value = isObject(node) ? node[key] : undefined;
  return isObject(value) ? value : {};
}

/** Follows local references (`#/…`) in openapi.yaml until the node is not one. */
export function deref(node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot follow $ref ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>((at, part) => (isObject(at) ? at[part] : undefined), openapi);
  }
  return current;
}

/** `X` for a schema that is exactly `{ $ref: '#/components/schemas/X' }`, else undefined. */
export function schemaName(schema: Json | undefined): string | undefined {
  if (!isObject(schema) || typeof schema.$ref !== 'string') return undefined;
  return /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1];
}

/** One operation of `paths` (`webhook` false) or `webhooks` (`webhook` true). */
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The path template, or the webhook name. */
  readonly path: string;
  readonly webhook: boolean;
  readonly operation: JsonObject;
  /** Path-level and operation-level parameters, resolved; the operation's win on a name and location clash. */
  readonly parameters: JsonObject[];
}

/** Every operation of both `paths` and `webhooks`. */
export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [section, webhook] of [
    ['paths', false],
    ['webhooks', true],
  ] as const) {
    for (const [path, rawItem] of Object.entries(objectAt(openapi, section))) {
      const item = deref(rawItem);
      for (const method of HTTP_METHODS) {
        const operation = isObject(item) ? item[method] : undefined;
        if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
        const byKey = new Map<string, JsonObject>();
        for (const raw of [...listAt(item, 'parameters'), ...listAt(operation, 'parameters')]) {
          const parameter = deref(raw);
          if (isObject(parameter)) byKey.set(`${String(parameter.in)} ${String(parameter.name)}`, parameter);
        }
        out.push({
          operationId: operation.operationId,
          method,
          path,
          webhook,
          operation,
          parameters: [...byKey.values()],
        });
      }
    }
  }
  return out;
}

function listAt(node: Json | undefined, key: string): Json[] {
  const value = isObject(node) ? node[key] : undefined;
  return Array.isArray(value) ? value : [];
}

/** The operation with this id; throws when there is none. */
export function operation(operationId: string): Operation {
  const found = operations().find((op) => op.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId} in openapi.yaml`);
  return found;
}

/** One example of a media type or parameter: where it is, the schema it must match, its value. */
export interface ExampleCase {
  readonly where: string;
  readonly schema: Json | undefined;
  readonly value: Json | undefined;
  /** The `components/examples` entry it is taken from, if any. */
  readonly component?: string;
}

/** The `example` and the named `examples` (resolving `#/components/examples/…`) of a media type or parameter. */
export function examplesOf(holder: JsonObject, where: string): ExampleCase[] {
  const out: ExampleCase[] = [];
  if (holder.example !== undefined)
    out.push({ where: `${where} example`, schema: holder.schema, value: holder.example });
  for (const [name, raw] of Object.entries(objectAt(holder, 'examples'))) {
    const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref : '';
    const component = /^#\/components\/examples\/(.+)$/.exec(ref)?.[1];
    const example = deref(raw);
    out.push({
      where: `${where} examples/${name}`,
      schema: holder.schema,
      value: isObject(example) ? example.value : undefined,
      ...(component === undefined ? {} : { component }),
    });
  }
  return out;
}

/** A media type of a request body or response, with a readable location. */
export interface MediaCase {
  readonly where: string;
  readonly operation: Operation;
  readonly media: JsonObject;
  readonly mediaType: string;
}

/** Every media type of every request body and response of every operation. */
export function mediaTypes(): MediaCase[] {
  const out: MediaCase[] = [];
  for (const op of operations()) {
    const label = `${op.webhook ? 'webhook' : op.method.toUpperCase()} ${op.path}`;
    const holders: [string, Json | undefined][] = [
      [`${label} request`, op.operation.requestBody],
      ...Object.entries(objectAt(op.operation, 'responses')).map(([status, response]): [string, Json] => [
        `${label} ${status}`,
        response,
      ]),
    ];
    for (const [where, holder] of holders) {
      for (const [mediaType, media] of Object.entries(objectAt(deref(holder), 'content'))) {
        if (isObject(media)) out.push({ where: `${where} ${mediaType}`, operation: op, media, mediaType });
      }
    }
  }
  return out;
}

/** One `x-casi-invalid-examples` entry and the schema it must break. */
export interface InvalidCase {
  readonly where: string;
  readonly schema: Json | undefined;
  readonly name: string;
  readonly reason: string;
  readonly pointer: string;
  readonly value: Json | undefined;
}

/** Every `x-casi-invalid-examples` entry of every media type. */
export function invalidExamples(): InvalidCase[] {
  return mediaTypes().flatMap(({ where, media }) =>
    listAt(media, 'x-casi-invalid-examples')
      .filter(isObject)
      .map((entry) => ({
        where: `${where} x-casi-invalid-examples/${String(entry.name)}`,
        schema: media.schema,
        name: String(entry.name),
        reason: String(entry.reason),
        pointer: String(entry.pointer),
        value: entry.value,
      })),
  );
}

/** The value of the first example of the JSON answer `status` of an operation; throws when there is none. */
export function responseExample(operationId: string, status = '200'): Json {
  const op = operation(operationId);
  const response = deref(objectAt(op.operation, 'responses')[status]);
  const media = objectAt(objectAt(response, 'content'), 'application/json');
  const value = examplesOf(media, operationId)[0]?.value;
  if (value === undefined) throw new Error(`${operationId} ${status} has no JSON example`);
  return value;
}

/** The value of the first example of an operation's JSON request body, or undefined when it takes none. */
export function requestExample(operationId: string): Json | undefined {
  const body = deref(operation(operationId).operation.requestBody);
  const media = objectAt(objectAt(body, 'content'), 'application/json');
  return examplesOf(media, operationId)[0]?.value;
}

/** The first example of each path parameter of an operation, by name. */
export function pathExamples(operationId: string): Record<string, Json | undefined> {
  const out: Record<string, Json | undefined> = {};
  for (const parameter of operation(operationId).parameters) {
    if (parameter.in === 'path') out[String(parameter.name)] = examplesOf(parameter, operationId)[0]?.value;
  }
  return out;
}

/** One AsyncAPI message: its key, the envelope it extends, its payload schema and its examples. */
export interface MessageCase {
  readonly key: string;
  readonly name: string;
  readonly envelope: 'ServerEvent' | 'ClientEvent';
  /** The OpenAPI component schema of `payload`, e.g. `AgentMessageDelta`. */
  readonly payloadSchema: string;
  readonly examples: { readonly name: string; readonly payload: Json | undefined }[];
}

const OPENAPI_SCHEMA = /^\.\/openapi\.yaml#\/components\/schemas\/([^/]+)$/;

/** Every message of `components/messages` in asyncapi.yaml; throws when one is not `envelope + payload schema`. */
export function messages(): MessageCase[] {
  return Object.entries(objectAt(objectAt(asyncapi, 'components'), 'messages')).flatMap(([key, message]) => {
    if (!isObject(message)) return [];
    const parts = listAt(objectAt(message, 'payload').schema, 'allOf').filter(isObject);
    const envelope = parts.map((part) => OPENAPI_SCHEMA.exec(String(part.$ref))?.[1]).find(Boolean);
    const payloadRef = parts.map((part) => objectAt(objectAt(part, 'properties'), 'payload').$ref).find(Boolean);
    const payloadSchema = OPENAPI_SCHEMA.exec(String(payloadRef))?.[1];
    if ((envelope !== 'ServerEvent' && envelope !== 'ClientEvent') || payloadSchema === undefined) {
      throw new Error(`asyncapi.yaml message ${key} is not allOf [ServerEvent|ClientEvent, {payload: $ref}]`);
    }
    const examples = listAt(message, 'examples')
      .filter(isObject)
      .map((example, i) => ({ name: String(example.name ?? `#${i}`), payload: example.payload }));
    return [{ key, name: String(message.name), envelope, payloadSchema, examples }];
  });
}

/** The names of `components/examples` in openapi.yaml. */
export function componentExampleNames(): string[] {
  return Object.keys(objectAt(objectAt(openapi, 'components'), 'examples'));
}

/** The names of `components/schemas` in openapi.yaml. */
export function componentSchemaNames(): string[] {
  return Object.keys(objectAt(objectAt(openapi, 'components'), 'schemas'));
}
