/** A tiny hand-written route table (validators compiled with ajv at test time) and a server starter for it. */

import type { IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import {
  type CasiRequest,
  type CasiRoutesOptions,
  casiRoutes,
  HttpError,
  type HttpHandler,
  type RouteDefinition,
  type SessionRequest,
  type SseHandler,
  type WebSocketHandler,
} from '../../templates/server/index.js';
import type { ValidationIssue, Validator } from '../../templates/shared/validation.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });

/** Compiles a JSON Schema into a `Validator` whose issues point at the offending property. */
export function validator<T = unknown>(schemaName: string, schema: object): Validator<T> {
  const validate = ajv.compile(schema);
  const check = ((data: unknown) => {
    const valid = validate(data);
    check.errors = valid ? null : (validate.errors ?? []).map(toIssue);
    return valid;
  }) as Validator<T>;
  Object.defineProperty(check, 'schemaName', { value: schemaName });
  check.errors = null;
  return check;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  const pointer = child === undefined ? error.instancePath : `${error.instancePath}/${child}`;
  return { pointer, message: error.message ?? error.keyword, keyword: error.keyword };
}

const errorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'transient', 'message'],
  properties: { code: { type: 'string' }, transient: { type: 'boolean' }, message: { type: 'string' }, data: {} },
};
const thingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: { type: 'string', pattern: '^th_' }, name: { type: 'string' }, size: { type: 'integer' } },
};
const versionQuery = { service_version: { type: 'string' }, token: { type: 'string' } };

/** Validates the `Error` shape. */
export const errorValidator = validator('Error', errorSchema);

const errors = { '4XX': { validator: errorValidator }, '5XX': { validator: errorValidator } };
const thingId = validator('ThingIdPath', {
  type: 'object',
  required: ['thing_id'],
  properties: { thing_id: { type: 'string', pattern: '^th_[a-z0-9]+$' } },
});
const http = { transport: 'http', security: ['apiKey'], serviceVersion: 'required', bodyRequired: false } as const;
const stream = { security: ['apiKey', 'conversationToken'], serviceVersion: 'optional', bodyRequired: false } as const;

/** The route table: things (create, get, delete), a broken route, replies to validate, an SSE route, a session. */
export const routes: readonly RouteDefinition[] = [
  {
    ...http,
    operationId: 'createThing',
    method: 'POST',
    path: '/things',
    bodyRequired: true,
    validators: {
      query: validator('CreateThingQuery', {
        type: 'object',
        additionalProperties: false,
        properties: { dry_run: { type: 'boolean' } },
      }),
      body: validator('ThingCreate', {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer', minimum: 0 } },
      }),
    },
    queryCoercion: { dry_run: 'boolean' },
    responses: { '201': { validator: validator('Thing', thingSchema) }, ...errors },
  },
  {
    ...http,
    operationId: 'getThing',
    method: 'GET',
    path: '/things/{thing_id}',
    validators: {
      params: thingId,
      query: validator('GetThingQuery', {
        type: 'object',
        additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          verbose: { type: 'boolean' },
          ratio: { type: 'number' },
        },
      }),
      headers: validator('GetThingHeaders', {
        type: 'object',
        properties: { 'x-trace': { type: 'string', pattern: '^[a-f0-9]+$' } },
      }),
    },
    queryCoercion: { limit: 'integer', verbose: 'boolean', ratio: 'number' },
    responses: {
      '200': { validator: validator('Thing', thingSchema) },
      '404': { validator: errorValidator },
      ...errors,
    },
  },
  {
    ...http,
    operationId: 'deleteThing',
    method: 'DELETE',
    path: '/things/{thing_id}',
    validators: { params: thingId },
    queryCoercion: {},
    responses: { '204': {}, ...errors },
  },
  {
    ...http,
    operationId: 'reply',
    method: 'POST',
    path: '/reply',
    validators: {},
    queryCoercion: {},
    responses: { '200': { validator: validator('Thing', thingSchema) }, '404': { validator: errorValidator } },
  },
  {
    ...stream,
    operationId: 'thingEvents',
    method: 'GET',
    path: '/things/{thing_id}/events',
    transport: 'sse',
    validators: {
      params: thingId,
      query: validator('EventsQuery', {
        type: 'object',
        additionalProperties: false,
        properties: { ...versionQuery, mode: { type: 'string' } },
      }),
    },
    queryCoercion: {},
    responses: { '200': { contentType: 'text/event-stream' }, '204': {}, ...errors },
    eventValidator: validator('Event', { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }),
  },
  {
    ...stream,
    operationId: 'thingSession',
    method: 'GET',
    path: '/things/{thing_id}/session',
    transport: 'websocket',
    validators: {
      params: thingId,
      query: validator('SessionQuery', {
        type: 'object',
        additionalProperties: false,
        properties: { ...versionQuery, last_event_id: { type: 'string' } },
      }),
    },
    queryCoercion: {},
    responses: { '101': {}, ...errors },
    eventValidator: validator('Event', { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }),
  },
];

/** What the test `authenticate` returns. */
export interface TestAuth {
  readonly key: string;
  readonly via: 'header' | 'token';
}

/** `Bearer good` or `Bearer readonly` (refused on writes), or `?token=tok` where the route accepts tokens. */
export const authenticate: NonNullable<CasiRoutesOptions<object, TestAuth>['authenticate']> = (request, route) => {
  const header = request.headers.authorization;
  const token = request.query.token;
  if (header === 'Bearer good' || header === 'Bearer readonly') {
    if (header === 'Bearer readonly' && request.method !== 'GET') {
      throw new HttpError(403, 'forbidden', 'This key is read-only.');
    }
    return { key: header.slice('Bearer '.length), via: 'header' };
  }
  if (token === 'tok' && route.security.includes('conversationToken')) return { key: 'tok', via: 'token' };
  throw new HttpError(401, 'unauthorized', 'The API key is missing or unknown.');
};

/** The request handlers of the test routes receive. */
export type TestRequest<Body = unknown> = CasiRequest<
  Record<string, string>,
  Record<string, unknown>,
  IncomingHttpHeaders,
  Body,
  TestAuth
>;

/** The handlers of the test routes; each test file overrides the ones it exercises. */
export interface TestHandlers {
  createThing: HttpHandler<TestRequest<{ name: string; size?: number }>>;
  getThing: HttpHandler<TestRequest>;
  deleteThing: HttpHandler<TestRequest>;
  reply: HttpHandler<TestRequest>;
  thingEvents: SseHandler<TestRequest>;
  thingSession: WebSocketHandler<
    SessionRequest<Record<string, string>, Record<string, unknown>, IncomingHttpHeaders, TestAuth>
  >;
}

/** Handlers that answer plainly; `startServer` merges the overrides over them. */
export const defaultHandlers: TestHandlers = {
  createThing: (req) => ({ status: 201, body: { id: 'th_1', name: req.body.name } }),
  getThing: (req) => ({ status: 200, body: { id: req.params.thing_id, name: 'thing' } }),
  deleteThing: () => ({ status: 204 }),
  reply: () => ({ status: 200, body: { id: 'th_1', name: 'thing' } }),
  thingEvents: (_req, stream) => {
    stream.close();
    return undefined;
  },
  thingSession: (_req, socket) => socket.close(1000, 'bye'),
};

/** Headers of an authenticated request with the right Service-Version. */
export const goodHeaders = { authorization: 'Bearer good', 'service-version': '2025-06-19' } as const;

/** A started server: its base URL, its log lines, and `close`. */
export interface TestServer {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly logs: string[];
  close(): Promise<void>;
}

/** Builds a Fastify instance with `casiRoutes` and listens on 127.0.0.1, port chosen by the OS. */
export async function startServer(
  options: Omit<CasiRoutesOptions<TestHandlers, TestAuth>, 'routes' | 'authenticate' | 'handlers'> & {
    readonly handlers?: Partial<TestHandlers>;
  } = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'error', stream } });
  casiRoutes(app, { ...options, routes, authenticate, handlers: { ...defaultHandlers, ...options.handlers } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: address, logs, close: () => app.close() };
}

/** Asserts the body is exactly an `Error` with the given status and code; returns it. */
export async function expectError(response: Response, status: number, code: string) {
  const body = (await response.json()) as { code: string; transient: boolean; message: string; data?: unknown };
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expect(errorValidator(body), JSON.stringify(errorValidator.errors)).toBe(true);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return body;
}
