/**
 * Body types as a server handler sees them: a byte body arrives as a `Buffer` and a text body as a string; a handler
 * answers text with a string, bytes with any `BinaryBody`, and an `http` event stream with its items.
 */
import { mediaKind } from '../../../templates/shared/media.js';
import type { IrOperation, IrResponse } from '../../ir/model.js';
import { bodyType, operationType, responseBodyType } from '../shared/operation-types.js';
import { literal } from '../shared/ts.js';

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

/** The body type a handler answers `response` with, or undefined for a response without a typed body. */
export function answerBodyType(op: IrOperation, response: IrResponse): string | undefined {
  const { contentType } = response;
  if (contentType === undefined) return undefined;
  switch (mediaKind(contentType)) {
    case 'json':
      return responseBodyType(op, response);
    case 'text':
      return 'string';
    case 'event-stream': {
      const item = response.schema
        ? `${operationType(op)}['responses'][${literal(response.status)}]['content'][${literal(contentType)}]`
        : 'unknown';
      return `EventStreamItems<${item}>`;
    }
    default:
      return 'BinaryBody';
  }
}
