/**
 * The route table and handlers of any spec, built at start-up from its model: the same `RouteDefinition`s the
 * generated server stubs hold (request parts validated with ajv, parameter styles and media types decoded), and
 * handlers that answer each operation's first success response with its example or a value built from its schema.
 */
import type { Ajv } from 'ajv';
import type { Ir, IrOperation, IrResponse, JsonSchema } from '../../generator/ir/model.js';
import { toAjvSchema } from '../../generator/schema/ajv.js';
import {
  type Components,
  componentsOf,
  parameterDecodings,
  partSchema,
  queryCoercion,
  requestMedia,
  validatedBodySchema,
  validatedResponseSchema,
} from '../../generator/schema/operations.js';
import { HttpError } from '../../templates/server/errors.js';
import type { HttpResult } from '../../templates/server/handlers.js';
import type { HttpMethod, ResponseDefinition, RouteDefinition } from '../../templates/server/route.js';
import { mediaKind } from '../../templates/shared/media.js';
import { type CompiledValidate, fromCompiled, type Validator } from '../../templates/shared/validation.js';
import { type Resolve, sampleOf } from './sample.js';

/** Routes and handlers by operationId, for `casiRoutes`. */
export interface SpecRoutes {
  readonly routes: RouteDefinition[];
  readonly handlers: Record<string, (req: unknown) => HttpResult>;
}

/** The routes of every HTTP operation of `ir` (event streams and sessions of this service's own kind are left out). */
export function specRoutes(ir: Ir, ajv: Ajv): SpecRoutes {
  const components = componentsOf(ir);
  const validator = (schema: JsonSchema | undefined, name: string): Validator<unknown> | undefined =>
    schema === undefined
      ? undefined
      : fromCompiled(ajv.compile(toAjvSchema(schema) as object) as CompiledValidate, name);
  const routes: RouteDefinition[] = [];
  const handlers: Record<string, (req: unknown) => HttpResult> = {};
  for (const op of ir.operations.filter((o) => o.transport === 'http')) {
    routes.push(routeOf(op, components, validator));
    handlers[op.id] = answering(op, components);
  }
  return { routes, handlers };
}

function routeOf(
  op: IrOperation,
  components: Components,
  validator: (schema: JsonSchema | undefined, name: string) => Validator<unknown> | undefined,
): RouteDefinition {
  const part = (name: 'params' | 'query' | 'headers' | 'cookies') =>
    validator(partSchema(op, name), `${op.id} ${name}`);
  const responses: Record<string, ResponseDefinition> = {};
  for (const response of op.responses) {
    const checked = validator(validatedResponseSchema(op, response, components), `${op.id} ${response.status}`);
    responses[response.status] = {
      ...(checked ? { validator: checked } : {}),
      ...(response.contentType && response.contentType !== 'application/json'
        ? { contentType: response.contentType }
        : {}),
    };
  }
  const decodings = parameterDecodings(op, components);
  const media = requestMedia(op, components);
  const version = op.parameters.header.find((p) => p.name.toLowerCase() === 'service-version');
  const validators = {
    params: part('params'),
    query: part('query'),
    headers: part('headers'),
    cookies: part('cookies'),
    body: validator(validatedBodySchema(op, components), `${op.id} body`),
  };
  return {
    operationId: op.id,
    method: op.method.toUpperCase() as HttpMethod,
    path: op.path,
    transport: 'http',
    security: op.security,
    serviceVersion: version ? (version.required ? 'required' : 'optional') : 'none',
    validators: Object.fromEntries(Object.entries(validators).filter(([, v]) => v !== undefined)),
    bodyRequired: op.requestBody?.required === true,
    queryCoercion: queryCoercion(op, components),
    ...(Object.keys(decodings).length > 0 ? { parameters: decodings } : {}),
    ...(media ? { requestMedia: media } : {}),
    responses,
  };
}

/** The first success response (`2XX` or a 2xx status), else the first declared one. */
function answerOf(op: IrOperation): IrResponse | undefined {
  return op.responses.find((r) => /^2(\d\d|XX)$/.test(r.status)) ?? op.responses.find((r) => r.status !== 'default');
}

/**
 * A handler answering the operation's first success response: its example or a value of its schema (bytes as an
 * empty buffer, an event stream as one item); 501 `not_implemented` when the spec declares nothing to answer.
 */
function answering(op: IrOperation, components: Components): (req: unknown) => HttpResult {
  const response = answerOf(op);
  if (response === undefined) {
    return () => {
      throw new HttpError(501, 'not_implemented', `${op.method.toUpperCase()} ${op.path} declares no response.`);
    };
  }
  const status = Number(response.status.replace('XX', '00'));
  const resolve = (name: string) => components.get(name);
  const body =
    response.contentType === undefined
      ? undefined
      : 'example' in response
        ? response.example
        : sampleFor(response.contentType, response.itemSchema ?? response.schema, resolve);
  return () => ({ status, body });
}

/** A value of a response body of `contentType`: bytes for binary types, a list of one item for event streams. */
function sampleFor(contentType: string, schema: JsonSchema | undefined, resolve: Resolve): unknown {
  switch (mediaKind(contentType)) {
    case 'event-stream':
      return [sampleOf(schema, resolve)];
    case 'binary':
    case 'multipart':
      return Buffer.alloc(0);
    default:
      return sampleOf(schema, resolve);
  }
}
