/**
 * `errorShape: 'declared'`: refused requests answered in the shape the operation declares (the response closest to
 * the failure, its sample where its schema refuses the `Error` body), a problem JSON where none is declared.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestErrorResponse } from '../../templates/server/declared-errors.js';
import { casiRoutes, type RouteDefinition } from '../../templates/server/index.js';
import { authenticate, errorValidator, goodHeaders, routes, validator } from './fixture.js';

const byId = (id: string) => routes.find((r) => r.operationId === id) as RouteDefinition;
const problemSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string' } },
};
const problemSample = { code: 0, message: 'sample' };

/**
 * getThing declares 400 with an integer `code` (not the `Error` shape), createThing only a `default` text,
 * deleteThing 403 in the `Error` shape and a 404 without a body.
 */
const declared: RouteDefinition[] = [
  {
    ...byId('getThing'),
    responses: {
      '200': {},
      '400': { validator: validator('Problem', problemSchema), sample: problemSample },
    },
    sampleAnswer: { status: 200, body: {} },
  },
  {
    ...byId('createThing'),
    responses: { default: { contentType: 'text/plain', sample: 'refused' } },
  },
  { ...byId('deleteThing'), responses: { '204': {}, '403': { validator: errorValidator, sample: {} }, '404': {} } },
];

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = Fastify();
  casiRoutes(app, { routes: declared, handlers: {}, authenticate, errorShape: 'declared' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('error answers in the declared shape', () => {
  it('answers an invalid parameter with the declared 400 sample when the Error body breaks its schema', async () => {
    const response = await fetch(`${url}/things/th_1?limit=0`, { headers: goodHeaders });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(problemSample);
  });

  it('keeps the Error body where the declared schema accepts it, at the nearest declared 4xx status', async () => {
    // 401 (no key) is not declared; 403 is the nearest, and its schema is the Error shape.
    const response = await fetch(`${url}/things/th_1`, { method: 'DELETE' });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('answers with default in its media type where no 4xx is declared', async () => {
    const response = await fetch(`${url}/things`, {
      method: 'POST',
      headers: { ...goodHeaders, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('refused');
  });

  it('sends the declared status alone where the declared response has no body', async () => {
    const response = await fetch(`${url}/things/nope`, { method: 'DELETE', headers: goodHeaders });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('answers an unknown path and a wrong method with a problem JSON of the status', async () => {
    const unknown = await fetch(`${url}/nowhere`, { headers: goodHeaders });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await unknown.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No endpoint has the path /nowhere.',
    });
    const wrong = await fetch(`${url}/things/th_1`, { method: 'PATCH', headers: goodHeaders });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('DELETE, GET, HEAD');
    expect(await wrong.json()).toMatchObject({ status: 405, title: 'Method Not Allowed' });
  });
});

describe('closestErrorResponse', () => {
  it.each([
    [{ '400': {}, '404': {}, default: {} }, 404, '404'],
    [{ '4XX': {}, '404': {} }, 401, '4XX'],
    [{ '400': {}, '409': {} }, 401, '400'],
    [{ '400': {}, '422': {} }, 415, '422'],
    [{ '200': {}, default: {} }, 401, 'default'],
    [{ '200': {} }, 401, undefined],
    [{ '500': {} }, 400, undefined],
  ] as const)('%j for %i: %s', (responses, status, key) => {
    expect(closestErrorResponse(responses, status)).toBe(key);
  });
});
