/** Routes without a handler: each answers its sample after the usual checks, or 501 where it has none. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { casiRoutes, type RouteDefinition } from '../../templates/server/index.js';
import { authenticate, expectError, goodHeaders, routes, validator } from './fixture.js';
import { readUntil, within } from './sse-io.js';

const thing = { id: 'th_sample', name: 'from the spec' };
const byId = (id: string) => routes.find((r) => r.operationId === id) as RouteDefinition;

/** The fixture's routes, with samples on some and none on others. */
const sampled: RouteDefinition[] = [
  { ...byId('getThing'), sampleAnswer: { status: 200, body: thing } },
  { ...byId('createThing') },
  { ...byId('deleteThing'), sampleAnswer: { status: 204 } },
  { ...byId('thingEvents'), sampleAnswer: { status: 200, body: [{ n: 1 }, { n: 2 }] } },
  { ...byId('thingSession') },
  {
    ...byId('reply'),
    responses: { '200': { validator: validator('Thing', { type: 'object', required: ['id'] }) } },
    sampleAnswer: { status: 200, body: { name: 'no id' } },
  },
];

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = Fastify();
  casiRoutes(app, { routes: sampled, handlers: {}, authenticate, validateResponses: true });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('a route without a handler', () => {
  it('answers its sample once the request passes its checks', async () => {
    const response = await fetch(`${url}/things/th_1?limit=5`, { headers: goodHeaders });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(thing);
  });

  it('still validates the request and its credentials first', async () => {
    await expectError(await fetch(`${url}/things/th_1?limit=0`, { headers: goodHeaders }), 400, 'invalid_request');
    await expectError(await fetch(`${url}/things/nope`, { headers: goodHeaders }), 404, 'not_found');
    await expectError(await fetch(`${url}/things/th_1`), 401, 'unauthorized');
  });

  it('answers a sample without a body with its status alone', async () => {
    const response = await fetch(`${url}/things/th_1`, { method: 'DELETE', headers: goodHeaders });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('answers 501 not_implemented in the error shape where the spec gives nothing to answer', async () => {
    const response = await fetch(`${url}/things`, {
      method: 'POST',
      headers: { ...goodHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a' }),
    });
    const body = await expectError(response, 501, 'not_implemented');
    expect(body.message).toBe('POST /things has no handler and no response to sample.');
  });

  it('checks its sample like any answer when responses are validated', async () => {
    const response = await fetch(`${url}/reply`, { method: 'POST', headers: goodHeaders });
    expect(response.status).toBe(500);
  });

  it('streams the sample items of an event stream and keeps the stream open', async () => {
    const controller = new AbortController();
    const response = await fetch(`${url}/things/th_1/events`, { headers: goodHeaders, signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const { text, ended } = await readUntil(response, (t) => t.includes('"n":2'));
    controller.abort();
    expect(ended).toBe(false);
    expect(text).toContain('data: {"n":1}\n\n');
    expect(text).toContain('data: {"n":2}\n\n');
  });

  it('closes a session with 1011 after the handshake', async () => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/things/th_1/session`, { headers: goodHeaders });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    expect(await within(closed, 3000, 'the session to close')).toEqual({ code: 1011, reason: 'no handler' });
  });
});
