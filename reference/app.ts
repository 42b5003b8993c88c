/** The reference server as a Fastify instance: the spec's routes, wired to `ReferenceService` by `http/`. */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  type BodyLimits,
  casiRoutes,
  casiServerOptions,
  routes as generatedRoutes,
  type RouteDefinition,
  SERVICE_VERSION,
} from '../generated/src/server.gen.js';
import type { Principal } from './auth.js';
import type { Clock } from './clock.js';
import { isLoopback, type ReferenceConfig } from './config.js';
import { registerConsole } from './console/routes.js';
import { registerDocs } from './docs/routes.js';
import { authenticateCaller } from './http/auth.js';
import { createHandlers } from './http/handlers.js';
import { PendingSessions } from './http/pending-sessions.js';
import { ReferenceService, type ReferenceServiceOptions } from './service.js';

/** Largest accepted request body (and WebSocket message): 1 MiB. */
export const BODY_LIMIT = 1024 * 1024;

/** Longest path parameter Fastify routes: as long as a request line can be (16 KiB), so the spec decides. */
export const MAX_PARAM_LENGTH = 16 * 1024;

/** What `createApp` takes; only `config` is required. */
export interface AppOptions {
  /** The configuration (`loadConfig(process.env).config`); `port` and `host` are the caller's to use. */
  readonly config: ReferenceConfig;
  /** The service's clock (tests pass a `FakeClock` to fast-forward calls, tokens, retention). Default: wall clock. */
  readonly clock?: Clock;
  /** Check every answer and event against the spec; a bad one becomes a 500 and is logged (tests). Default false. */
  readonly validateResponses?: boolean;
  /** Fastify's `logger` option. Default: no logging. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Milliseconds of silence before an SSE stream sends `: heartbeat`. Default 15 000. */
  readonly sseHeartbeatMs?: number;
  /** Deadlines of request bodies and the bytes unfinished ones may hold (defaults in `CasiRoutesOptions`). */
  readonly bodyLimits?: Partial<BodyLimits>;
  /**
   * Another version of this spec to serve (as `casi serve --openapi` reads it): its routes and `Service-Version`.
   * Its operations with a handler here keep it; the others answer their samples. Default: the generated routes.
   */
  readonly spec?: ServedSpec;
  /**
   * Storage, event bus, background-error reporter, fetch, locks and notices of the service. Default: in memory, one
   * process, `console.error`.
   */
  readonly service?: Pick<
    ReferenceServiceOptions,
    'store' | 'bus' | 'onError' | 'fetch' | 'locks' | 'notices' | 'timerRows'
  >;
}

/** The routes of a spec to serve, and the `Service-Version` it accepts. */
export interface ServedSpec {
  readonly routes: readonly RouteDefinition[];
  readonly serviceVersion: string;
}

/** A reference server, not yet listening: `app.listen(...)` starts it, `close()` stops it and the service. */
export interface App {
  readonly app: FastifyInstance;
  readonly service: ReferenceService;
  /** Closes open streams and sessions, the HTTP server and the service's timers (idempotent). */
  close(): Promise<void>;
}

/** Builds the service and the Fastify instance with every route of the spec registered. */
export function createApp(options: AppOptions): App {
  const { config } = options;
  const service = new ReferenceService({
    ...options.service,
    settings: config,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  // Path parameters are validated against the spec (ids up to 128 characters), not cut off by Fastify at 100.
  const app = Fastify({
    ...casiServerOptions(),
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  });
  const sessions = new PendingSessions(service);
  const spec = options.spec ?? { routes: generatedRoutes, serviceVersion: SERVICE_VERSION };
  const served = new Set(spec.routes.map((route) => route.operationId));
  const handlers = Object.fromEntries(
    Object.entries(createHandlers(service, sessions)).filter(([operationId]) => served.has(operationId)),
  );
  casiRoutes<typeof handlers, Principal>(app, {
    routes: spec.routes,
    handlers,
    serviceVersion: spec.serviceVersion,
    authenticate: async (request, route) => {
      const principal = await authenticateCaller(service, request, route);
      if (route.transport === 'websocket') await sessions.prepare(request, route, principal);
      return principal;
    },
    validateResponses: options.validateResponses ?? false,
    bodyLimit: BODY_LIMIT,
    maxPayload: BODY_LIMIT,
    ...(config.corsOrigin === null ? {} : { corsOrigin: config.corsOrigin }),
    ...(options.sseHeartbeatMs === undefined ? {} : { sseHeartbeatMs: options.sseHeartbeatMs }),
    ...(options.bodyLimits === undefined ? {} : { bodyLimits: options.bodyLimits }),
  });
  registerConsole(app, service, config.apiKeys[0]?.org ?? null, !isLoopback(config.host));
  registerDocs(app);
  app.addHook('onClose', async () => service.close());
  let closing: Promise<void> | undefined;
  return { app, service, close: () => (closing ??= app.close()) };
}
