/**
 * A route's members other than its validators, as plain data: the generated route table prints them and
 * `casi serve` uses them as they are, so both read an operation the same way.
 */
import type { HttpMethod, RouteDefinition, SampleAnswer } from '../../templates/server/route.js';
import { mediaKind } from '../../templates/shared/media.js';
import type { IrOperation, IrResponse } from '../ir/model.js';
import { type Components, otherRequestMedia, parameterDecodings, queryCoercion, requestMedia } from './operations.js';
import { sampleOf } from './sample.js';

/** Everything in a `RouteDefinition` that is not a validator. */
export type RouteParts = Omit<RouteDefinition, 'validators' | 'responses' | 'eventValidator'>;

/** The plain members of `op`'s route. */
export function routeParts(op: IrOperation, components: Components): RouteParts {
  const version = op.parameters.header.find((p) => p.name.toLowerCase() === 'service-version');
  const decodings = parameterDecodings(op, components);
  const media = requestMedia(op, components);
  const others = otherRequestMedia(op, components);
  const sample = sampleAnswer(op, components);
  return {
    operationId: op.id,
    method: op.method.toUpperCase() as HttpMethod,
    path: op.path,
    transport: op.transport,
    security: op.security,
    serviceVersion: version ? (version.required ? 'required' : 'optional') : 'none',
    bodyRequired: op.requestBody?.required === true,
    queryCoercion: queryCoercion(op, components),
    ...(Object.keys(decodings).length > 0 ? { parameters: decodings } : {}),
    ...(media ? { requestMedia: media } : {}),
    ...(others.length > 0 ? { otherMedia: others } : {}),
    ...(sample ? { sampleAnswer: sample } : {}),
  };
}

/** The first success response (`2XX` or a 2xx status), else the first declared one but `default`. */
function answerOf(op: IrOperation): IrResponse | undefined {
  return op.responses.find((r) => /^2(\d\d|XX)$/.test(r.status)) ?? op.responses.find((r) => r.status !== 'default');
}

/** What `op` answers without a handler: `answerOf`'s status with its example, or a value of its schema. */
function sampleAnswer(op: IrOperation, components: Components): SampleAnswer | undefined {
  const response = answerOf(op);
  if (response === undefined) return undefined;
  const status = Number(response.status.replace('XX', '00'));
  if (response.contentType === undefined) return { status };
  const schema = response.itemSchema ?? response.schema;
  const value = (): unknown => ('example' in response ? response.example : sampleOf(schema, (n) => components.get(n)));
  switch (mediaKind(response.contentType)) {
    case 'event-stream':
      return { status, body: [value()] };
    case 'binary':
    case 'multipart':
      return { status, body: '' };
    default:
      return { status, body: value() };
  }
}

/** A response's content type where it is not JSON (the runtime's default), else undefined. */
export function answerContentType(response: IrResponse): string | undefined {
  return response.contentType && response.contentType !== 'application/json' ? response.contentType : undefined;
}
