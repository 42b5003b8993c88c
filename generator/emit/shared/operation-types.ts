/** TypeScript type expressions for an operation's parts, shared by the client and server emitters. */

import { mediaKind } from '../../../templates/shared/media.js';
import type { IrOperation, IrResponse, JsonSchema } from '../../ir/model.js';
import { isPlainName } from '../../names.js';
import { partParameters, refName } from '../../schema/operations.js';
import { literal } from './ts.js';

/** The namespace the generated files import the types module as. */
export const TYPES = 'types';

/** The operation's type in openapi-typescript's `paths` (every operation has one, with an operationId or not). */
export function operationType(op: IrOperation): string {
  return `${TYPES}.paths[${literal(op.path)}][${literal(op.method)}]`;
}

const operation = operationType;

/** The type of a schema: its component's when it is a reference, else the fallback path into `paths`. */
function schemaType(schema: JsonSchema | undefined, fallback: string): string {
  const name = refName(schema);
  if (name === undefined) return fallback;
  return isPlainName(name) ? `${TYPES}.${name}` : `${TYPES}.components['schemas'][${literal(name)}]`;
}

/** Path parameters, as openapi-typescript types them (`Record<string, never>` when there are none). */
export function paramsType(op: IrOperation): string {
  return op.parameters.path.length > 0 ? `${operation(op)}['parameters']['path']` : 'Record<string, never>';
}

/** Query parameters (`Record<string, never>` when there are none). */
export function queryType(op: IrOperation): string {
  return op.parameters.query.length > 0
    ? `NonNullable<${operation(op)}['parameters']['query']>`
    : 'Record<string, never>';
}

/** Header parameters with the lower-cased names a server sees (the runtime-checked ones left out). */
export function headersType(op: IrOperation): string {
  const params = partParameters(op, 'headers');
  if (params.length === 0) return 'Record<string, string | string[] | undefined>';
  const members = params.map((p) => `readonly ${literal(p.name)}${p.required ? '' : '?'}: string;`);
  return `{ ${members.join(' ')} } & Record<string, string | string[] | undefined>`;
}

/**
 * The request body type (of the media type the client sends), or undefined when the operation takes none: `string`
 * for text, else the type the spec gives the media type (binary schemas as `Blob`).
 */
export function bodyType(op: IrOperation): string | undefined {
  if (!op.requestBody) return undefined;
  const { contentType, schema } = op.requestBody;
  if (mediaKind(contentType) === 'text') return 'string';
  const content = `NonNullable<${operation(op)}['requestBody']>['content'][${literal(contentType)}]`;
  return contentType === 'application/json' ? schemaType(schema, content) : content;
}

/**
 * The body type of one response as its media type is read, or undefined for a response without a body (or a JSON
 * one without a schema): the schema's type for JSON, `string` for text and forms, `Blob` for bytes and multipart,
 * and for an event stream the type of one item (its `itemSchema`, else its `schema`; `unknown` without either).
 */
export function responseBodyType(op: IrOperation, response: IrResponse): string | undefined {
  const { contentType } = response;
  if (contentType === undefined) return undefined;
  const content = `${operation(op)}['responses'][${literal(response.status)}]['content'][${literal(contentType)}]`;
  switch (mediaKind(contentType)) {
    case 'json':
      return response.schema ? schemaType(response.schema, content) : undefined;
    case 'text':
    case 'form':
      return 'string';
    case 'event-stream':
      if (response.itemSchema) return schemaType(response.itemSchema, 'unknown');
      return response.schema ? schemaType(response.schema, content) : 'unknown';
    default:
      return 'Blob';
  }
}

/**
 * The type a client method resolves to: the first 2xx answer's body, joined, when that is JSON, by the JSON bodies of
 * the other 2xx answers (the runtime reads whichever arrives, as `SuccessData` types it).
 */
export function successBodyType(op: IrOperation): string | undefined {
  const [first, ...others] = op.responses.filter((r) => /^2\d\d$/.test(r.status));
  if (first === undefined) return undefined;
  const type = responseBodyType(op, first);
  if (type === undefined || first.contentType === undefined || mediaKind(first.contentType) !== 'json') return type;
  const json = others.filter((r) => r.contentType !== undefined && mediaKind(r.contentType) === 'json');
  const types = [type, ...json.map((r) => responseBodyType(op, r) ?? 'unknown')];
  return [...new Set(types)].join(' | ');
}

/** The first declared 2xx response (the one a client method returns). */
export function successResponse(op: IrOperation): IrResponse | undefined {
  return op.responses.find((r) => /^2\d\d$/.test(r.status));
}

/** A status key as a numeric literal type: `'404'` → `404`, `'5XX'` → `500 | … | 505`, `'default'` → `number`. */
export function statusType(status: string): string {
  if (/^\d{3}$/.test(status)) return status;
  const range = /^([1-5])XX$/.exec(status)?.[1];
  if (range) return Array.from({ length: 6 }, (_, i) => `${range}0${i}`).join(' | ');
  return 'number';
}
