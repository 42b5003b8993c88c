/** Handler typing as the generated code will narrow it, and the registration checks of the handler map. */
import type { IncomingHttpHeaders } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type CasiRequest,
  casiRoutes,
  type ErrorBody,
  type HttpHandler,
  type SessionRequest,
  type SseHandler,
  type WebSocketHandler,
} from '../../templates/server/index.js';
import { authenticate, defaultHandlers, routes, type TestAuth } from './fixture.js';

interface Thing {
  id: string;
  name: string;
}
type Req<P, Q, B> = CasiRequest<P, Q, IncomingHttpHeaders, B, TestAuth>;

/** What the generator will emit for the fixture's operations. */
interface NarrowHandlers {
  createThing: HttpHandler<
    Req<Record<string, never>, { dry_run?: boolean }, { name: string; size?: number }>,
    { status: 201; body: Thing } | { status: 400; body: ErrorBody }
  >;
  getThing: HttpHandler<
    Req<{ thing_id: string }, { limit?: number }, undefined>,
    { status: 200; body: Thing } | { status: 404; body: ErrorBody }
  >;
  deleteThing: HttpHandler<Req<{ thing_id: string }, Record<string, never>, undefined>, { status: 204 }>;
  reply: HttpHandler<Req<Record<string, never>, Record<string, never>, undefined>, { status: 200; body: Thing }>;
  thingEvents: SseHandler<Req<{ thing_id: string }, { mode?: string }, undefined>, { status: 204 }>;
  thingSession: WebSocketHandler<
    SessionRequest<{ thing_id: string }, Record<string, never>, IncomingHttpHeaders, TestAuth>
  >;
}

const narrow: NarrowHandlers = {
  createThing: async (req) => ({ status: 201, body: { id: 'th_1', name: req.body.name } }),
  getThing: (req) => {
    expectTypeOf(req.query.limit).toEqualTypeOf<number | undefined>();
    expectTypeOf(req.auth).toEqualTypeOf<TestAuth>();
    return { status: 200, body: { id: req.params.thing_id, name: 'x' } };
  },
  // @ts-expect-error 201 is not among the declared answers
  deleteThing: () => ({ status: 201 }),
  reply: () => ({ status: 200, body: { id: 'th_1', name: 'x' } }),
  thingEvents: async (_req, stream) => {
    await stream.sendJson({ n: 1 }, { id: 'ev_1' });
    return undefined;
  },
  thingSession: (req, socket) => {
    expectTypeOf(req.params.thing_id).toEqualTypeOf<string>();
    socket.onMessage((text) => void socket.sendJson({ echo: text }));
  },
};

describe('casiRoutes registration', () => {
  it('accepts narrowly typed handlers', async () => {
    const app = Fastify();
    casiRoutes(app, { routes, handlers: narrow, authenticate });
    await app.ready();
    expect(app.hasRoute({ method: 'GET', url: '/things/:thing_id' })).toBe(true);
    await app.close();
  });

  it('refuses a handler without route', () => {
    const extra = { ...defaultHandlers, stray: () => ({ status: 200 }) };
    expect(() => casiRoutes(Fastify(), { routes, handlers: extra })).toThrow('no route for handler stray');
  });

  it('refuses values that are not handlers, at compile time and at start-up', () => {
    const handlers = { ...defaultHandlers, getThing: 42 };
    // @ts-expect-error a number is not a handler
    expect(() => casiRoutes(Fastify(), { routes, handlers })).toThrow('the handler for getThing is not a function');
  });
});
