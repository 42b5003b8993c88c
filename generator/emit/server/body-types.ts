/**
 * Types of request parts and bodies as a server handler sees them: headers decoded from their style; a byte body
 * arrives as a `Buffer` and a text body as a string; a handler answers text with a string, bytes with any
 * `BinaryBody`, and an `http` event stream with its items.
 */
import type { ValueShape } from '../../../templates/server/route.js';
import { mediaKind } from '../../../templates/shared/media.js';
import type { IrOperation, IrResponse } from '../../ir/model.js';
import { type Components, parameterDecodings, partParameters } from '../../schema/operations.js';
import { bodyType, operationType, responseBodyType } from '../shared/operation-types.js';
import { literal, propertyName } from '../shared/ts.js';

const SCALAR_TYPES = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean' } as const;

/** The TypeScript type of a decoded value of `shape`. */
function shapeType(shape: ValueShape): string {
  if ('type' in shape) return SCALAR_TYPES[shape.type];
  if ('items' in shape) return `readonly ${SCALAR_TYPES[shape.items]}[]`;
  if ('json' in shape) return 'unknown';
  const members = Object.entries(shape.properties).map(
    ([name, type]) => `readonly ${propertyName(name)}?: ${SCALAR_TYPES[type]};`,
  );
  return `{ ${members.join(' ')} }`;
}

/**
 * Header parameters with the lower-cased names a server sees, each typed as its style decodes it (a string unless
 * its schema says otherwise), the runtime-checked ones left out; for operations whose headers need decoding.
 */
export function decodedHeadersType(op: IrOperation, components: Components): string {
  const params = partParameters(op, 'headers');
  const decoded = parameterDecodings(op, components).header ?? {};
  const members = params.map((p) => {
    const decoding = decoded[p.name];
    return `readonly ${literal(p.name)}${p.required ? '' : '?'}: ${decoding ? shapeType(decoding.shape) : 'string'};`;
  });
  return `{ ${members.join(' ')} } & Record<string, unknown>`;
}

/** The runtime types these expressions name; the server file imports the ones it uses. */
export const BODY_TYPE_NAMES = ['BinaryBody', 'EventStreamItems'] as const;

/** The request body type of a handler, or undefined when the operation takes none. */
export function requestBodyType(op: IrOperation): string | undefined {
  if (!op.requestBody) return undefined;
  switch (mediaKind(op.requestBody.contentType)) {
    case 'binary':
      return 'Buffer';
    case 'text':
    case 'event-stream':
      return 'string';
    default:
      return bodyType(op);
  }
}

/** The type openapi-typescript gives the schema of one response media type. */
function schemaTypeOf(op: IrOperation, response: IrResponse, contentType: string): string {
  return `${operationType(op)}['responses'][${literal(response.status)}]['content'][${literal(contentType)}]`;
}

/** The body type a handler answers `response` with, or undefined for a response without a typed body. */
export function answerBodyType(op: IrOperation, response: IrResponse): string | undefined {
  const { contentType } = response;
  if (contentType === undefined) return undefined;
  switch (mediaKind(contentType)) {
    case 'json':
      return responseBodyType(op, response) ?? (response.schema ? schemaTypeOf(op, response, contentType) : undefined);
    case 'text':
      return 'string';
    case 'event-stream':
      return `EventStreamItems<${response.schema ? schemaTypeOf(op, response, contentType) : 'unknown'}>`;
    default:
      return 'BinaryBody';
  }
}
