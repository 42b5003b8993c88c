/**
 * The route table of any spec, built at start-up from its model: the same `RouteDefinition`s the generated server
 * stubs hold (request parts validated with ajv, parameter styles and media types decoded, a sample answer each),
 * and a sample of every response with a body, for error answers in the declared shape.
 */
import type { Ajv } from 'ajv';
import type { Ir, IrOperation, IrResponse, JsonSchema } from '../../generator/ir/model.js';
import { toAjvSchema } from '../../generator/schema/ajv.js';
import {
  type Components,
  componentsOf,
  partSchema,
  validatedBodySchema,
  validatedResponseSchema,
} from '../../generator/schema/operations.js';
import { answerContentType, routeParts } from '../../generator/schema/route-parts.js';
import { sampleOf } from '../../generator/schema/sample.js';
import type { ResponseDefinition, RouteDefinition } from '../../templates/server/route.js';
import { type CompiledValidate, fromCompiled, type Validator } from '../../templates/shared/validation.js';

/**
 * The routes of every operation of `ir`; event streams and sessions of this service's own kind check what they send
 * against `ServerEvent` where the document has it.
 */
export function specRoutes(ir: Ir, ajv: Ajv): RouteDefinition[] {
  const components = componentsOf(ir);
  const validator = (schema: JsonSchema | undefined, name: string): Validator<unknown> | undefined =>
    schema === undefined
      ? undefined
      : fromCompiled(ajv.compile(toAjvSchema(schema) as object) as CompiledValidate, name);
  const events = components.has('ServerEvent')
    ? validator({ $ref: '#/components/schemas/ServerEvent' }, 'ServerEvent')
    : undefined;
  return ir.operations.map((op) => {
    const route = routeOf(op, components, validator);
    return op.transport !== 'http' && events !== undefined ? { ...route, eventValidator: events } : route;
  });
}

/** The body a response stands for in samples: its example, else a value of its schema. */
function sampleBody(response: IrResponse, components: Components): unknown {
  if ('example' in response) return response.example;
  return sampleOf(response.itemSchema ?? response.schema, (name) => components.get(name));
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
    const contentType = answerContentType(response);
    responses[response.status] = {
      ...(checked ? { validator: checked } : {}),
      ...(contentType ? { contentType } : {}),
      ...(response.contentType === undefined ? {} : { sample: sampleBody(response, components) }),
    };
  }
  const validators = {
    params: part('params'),
    query: part('query'),
    headers: part('headers'),
    cookies: part('cookies'),
    body: validator(validatedBodySchema(op, components), `${op.id} body`),
  };
  return {
    ...routeParts(op, components),
    validators: Object.fromEntries(Object.entries(validators).filter(([, v]) => v !== undefined)),
    responses,
  };
}
