/** The generated server stubs over real HTTP: routing, Service-Version, request validation, response validation. */
import { createParser } from 'eventsource-parser';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerRoutes, routes } from '../../generated/src/server.gen.js';
import { type Validator, validateError, validateServerEvent } from '../../generated/src/validators.gen.js';
import { pathExamples, requestExample } from './spec.js';
import { BROKEN_PROCEDURE, type Call, streamedEvents, stubHandlers, TEAPOT_CUSTOMER } from './stub-handlers.js';

const VERSION = { 'service-version': '2025-06-19' };

const TIMEOUT_MS = 5_000;

let app: FastifyInstance;
let base = '';
const calls: Call[] = [];

beforeAll(async () => {
  app = Fastify({ logger: false });
  registerRoutes(app, stubHandlers(calls), { validateResponses: true });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  calls.length = 0;
});

/** Sends a request with `Service-Version` (unless `headers` overrides it) and a JSON body when one is given. */
function send(method: string, path: string, body?: unknown, headers: Record<string, string> = VERSION) {
  return fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

/** Reads an error answer: checks its status, that the body has the `Error` shape, and that no handler ran. */
async function expectError(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = await response.json();
  expect(validateError(body), JSON.stringify(validateError.errors)).toBe(true);
  expect(body).toMatchObject({ code });
  expect(calls).toEqual([]);
  return body as Record<string, unknown>;
}

/** The `data` of an `invalid_request` answer, each entry checked to be exactly `{ in, pointer, message }`. */
async function expectInvalid(
  response: Response,
  [status, code] = [400, 'invalid_request'],
): Promise<{ in: string; pointer: string; message: string }[]> {
  const body = await expectError(response, status, code);
  expect(Array.isArray(body.data)).toBe(true);
  const data = body.data as { in: string; pointer: string; message: string }[];
  expect(data.length).toBeGreaterThan(0);
  for (const problem of data) {
    expect(Object.keys(problem).sort()).toEqual(['in', 'message', 'pointer']);
    expect(['path', 'query', 'header', 'body']).toContain(problem.in);
    expect(typeof problem.message).toBe('string');
  }
  return data;
}

/** The route's path with every parameter replaced by its spec example. */
function examplePath(operationId: string, template: string): string {
  const examples = pathExamples(operationId);
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(examples[name])));
}

describe('valid requests', () => {
  const httpRoutes = routes.filter((route) => route.transport === 'http');

  it('cover every HTTP operation', () => {
    expect(httpRoutes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(httpRoutes)('$method $path reaches $operationId and answers 200 with a valid body', async (route) => {
    const body = route.validators.body === undefined ? undefined : requestExample(route.operationId);
    const response = await send(route.method, examplePath(route.operationId, route.path), body);
    const answer: unknown = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(200);
    const validator = route.responses['200']?.validator as Validator<unknown>;
    expect(validator(answer), JSON.stringify(validator.errors)).toBe(true);
    expect(calls.map((call) => call.operationId)).toEqual([route.operationId]);
    expect(calls[0]?.body).toEqual(body);
    expect(calls[0]?.params).toEqual(pathExamples(route.operationId));
  });

  it('pass the query to the handler with declared types coerced', async () => {
    const response = await send('GET', '/conversations?limit=50&created_at_gte=2025-07-01T00:00:00Z');
    expect(response.status).toBe(200);
    expect(calls[0]?.query).toEqual({ limit: 50, created_at_gte: '2025-07-01T00:00:00Z' });
  });
});

describe('Service-Version', () => {
  it('missing answers 400 missing_service_version', async () => {
    await expectError(await send('GET', '/conversations', undefined, {}), 400, 'missing_service_version');
  });

  it('other than 2025-06-19 answers 400 unsupported_service_version', async () => {
    const response = await send('GET', '/conversations', undefined, { 'service-version': '2024-01-01' });
    await expectError(response, 400, 'unsupported_service_version');
  });
});

describe('invalid requests answer 400 invalid_request listing each problem', () => {
  it('a body that breaks the schema, with every problem of every part', async () => {
    const body = { agent_id: 'pa_3Hf8QwZ1', channel: { type: 'chat_async' }, livemode: 'yes' };
    const data = await expectInvalid(await send('POST', '/conversations?dry_run=1', body));
    expect(data).toContainEqual(expect.objectContaining({ in: 'body', pointer: '/agent_id' }));
    expect(data).toContainEqual(expect.objectContaining({ in: 'body', pointer: '/livemode' }));
    expect(data).toContainEqual(expect.objectContaining({ in: 'query', pointer: '/dry_run' }));
  });

  it('a missing required body member, named at the member', async () => {
    const data = await expectInvalid(await send('POST', '/conversations', { channel: { type: 'chat_async' } }));
    expect(data).toContainEqual(expect.objectContaining({ in: 'body', pointer: '/agent_id' }));
  });

  it('an unknown query parameter', async () => {
    const data = await expectInvalid(await send('GET', '/conversations?colour=blue'));
    expect(data).toEqual([expect.objectContaining({ in: 'query', pointer: '/colour' })]);
  });

  it.each(['0', '101', 'abc', '1.5'])('limit=%s on GET /conversations', async (limit) => {
    const data = await expectInvalid(await send('GET', `/conversations?limit=${limit}`));
    expect(data).toEqual([expect.objectContaining({ in: 'query', pointer: '/limit' })]);
  });

  it('a path parameter that breaks its pattern: 404 not_found (the path names no resource), before other parts', async () => {
    const data = await expectInvalid(await send('GET', '/conversations/nope?limit=x'), [404, 'not_found']);
    expect(data).toEqual([expect.objectContaining({ in: 'path', pointer: '/conversation_id' })]);
  });
});

describe('unmatched requests', () => {
  it('an unknown path answers 404 route_not_found', async () => {
    await expectError(await send('GET', '/nope'), 404, 'route_not_found');
  });

  it('a known path with another method answers 405 method_not_allowed with Allow', async () => {
    const response = await send('DELETE', '/conversations');
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    await expectError(response, 405, 'method_not_allowed');
  });
});

describe('response validation', () => {
  it('turns a body that breaks the schema into 500 internal_error', async () => {
    const response = await send('GET', `/procedures/${BROKEN_PROCEDURE}`);
    expect(response.status).toBe(500);
    const body: unknown = await response.json();
    expect(validateError(body)).toBe(true);
    expect(body).toMatchObject({ code: 'internal_error', transient: true });
    expect(JSON.stringify(body)).not.toContain('wrong');
    expect(calls.map((call) => call.operationId)).toEqual(['getProcedure']);
  });

  it('turns a status the operation does not declare into 500 internal_error', async () => {
    const response = await send('GET', `/customers/${TEAPOT_CUSTOMER}`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'internal_error' });
  });
});

/** Reads an SSE answer to its end and returns each message's data, parsed. */
async function readEvents(response: Response): Promise<unknown[]> {
  const data: unknown[] = [];
  const parser = createParser({ onEvent: (event) => data.push(JSON.parse(event.data)) });
  parser.feed(await response.text());
  return data;
}

describe('the event stream', () => {
  it('sends the handler events as SSE messages that pass validateServerEvent', async () => {
    const response = await send('GET', '/conversations/conv_9Xr4Tb2Kp/events', undefined, {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(response);
    expect(events).toEqual(streamedEvents);
    for (const event of events) expect(validateServerEvent(event)).toBe(true);
  });

  it('accepts the conversation token as ?token=', async () => {
    const response = await send('GET', '/conversations/conv_9Xr4Tb2Kp/events?token=ct_Yk8sN2qV7mPz4LwR', undefined, {});
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await readEvents(response)).toEqual(streamedEvents);
  });
});

/** Opens a WebSocket session and collects its messages until the server closes it (bounded in time). */
function session(path: string, headers: Record<string, string>): Promise<{ messages: unknown[]; code: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers });
    const messages: unknown[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no close within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    socket.on('unexpected-response', (_, response) => {
      clearTimeout(timer);
      socket.terminate();
      reject(new Error(`handshake refused with ${response.statusCode}`));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', (code) => {
      clearTimeout(timer);
      resolve({ messages, code });
    });
  });
}

describe('the WebSocket session', () => {
  it('delivers the handler events', async () => {
    const { messages, code } = await session('/conversations/conv_9Xr4Tb2Kp/session', VERSION);
    expect(code).toBe(1000);
    expect(messages).toEqual(streamedEvents);
    expect(calls.map((call) => call.operationId)).toEqual(['openConversationSession']);
  });

  it('accepts the conversation token as ?token=', async () => {
    const { messages } = await session('/conversations/conv_9Xr4Tb2Kp/session?token=ct_Yk8sN2qV7mPz4LwR', {});
    expect(messages).toEqual(streamedEvents);
  });
});
