/**
 * WebSocket routes: answers the HTTP server's `upgrade` events with plain `ws` (no plugin), loaded with `import()`
 * when routes are registered, so that an app serving only HTTP runs without `ws` installed. The handshake passes
 * the same Service-Version, authentication and parameter checks as HTTP; a refusal is an HTTP answer with the
 * `Error` body written on the raw socket, before any upgrade. (`@fastify/websocket` 11 would run Fastify's hooks on
 * the handshake but adds a dependency and drops messages sent before an async handler listens; `SessionSocket`
 * buffers them instead.)
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import { admit } from './admission.js';
import type { Track } from './closeables.js';
import { toErrorAnswer } from './error-handler.js';
import { HttpError, invalidRequest } from './errors.js';
import type { SessionRequest, WebSocketHandler } from './handlers.js';
import { requireHost } from './host.js';

/** A handshake request as the runtime builds it, before the generated types narrow it. */
type UntypedSessionRequest = SessionRequest<unknown, unknown, unknown, unknown>;

import type { ResolvedOptions } from './options.js';
import { compilePath, pathOf } from './path.js';
import { parseQuery } from './query.js';
import { writeRawError } from './raw-answer.js';
import { validateRequest } from './request.js';
import { checkEvent } from './response.js';
import type { RouteDefinition } from './route.js';
import { createSessionSocket, type SessionSocket } from './session-socket.js';
import { claimUpgrades } from './upgrade-claims.js';

/** Registers the `upgrade` listener for the `websocket` routes; `track` receives each open session (closed with
 * 1001 when the server closes). */
export function attachWebSockets(app: FastifyInstance, options: ResolvedOptions, track: Track): void {
  const routes = options.routes
    .filter((route) => route.transport === 'websocket')
    .map((route) => ({ route, matcher: compilePath(route.path) }));
  if (routes.length === 0) return;
  // Loading starts now; a failure (`ws` not installed) is reported on each upgrade, as a 500 answer.
  const loading = import('ws').then(
    ({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload: options.maxPayload }),
  );
  loading.catch(() => {});
  const log = app.log;
  const unknownPath = claimUpgrades(app.server, (path) => routes.some((r) => r.matcher.match(path) != null));
  app.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOf(raw.url ?? '/');
    if (!routes.some((r) => r.matcher.match(path) != null) && unknownPath(path) === 'leave') return;
    socket.on('error', () => socket.destroy());
    if (String(raw.headers.upgrade).toLowerCase() !== 'websocket') {
      answerAsHttp(app, raw, socket);
      return;
    }
    upgrade(raw, socket, head).catch((error: unknown) => {
      log.error({ err: error }, 'WebSocket upgrade failed');
      socket.destroy();
    });
  });
  app.addHook('onClose', async () => {
    const wss = await loading.catch(() => undefined);
    if (wss !== undefined) await new Promise((resolve) => wss.close(resolve));
  });

  /** Admits and validates the handshake, answering a refusal on the raw socket, then upgrades. */
  async function upgrade(raw: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let prepared: { route: RouteDefinition; request: UntypedSessionRequest };
    let wss: WebSocketServer;
    try {
      prepared = await prepare(raw);
      wss = await loading;
    } catch (error) {
      const answer = toErrorAnswer(error, options.bodyLimit);
      if (answer.internal) log.error({ err: error }, 'internal error during a WebSocket handshake');
      writeRawError(socket, answer.error);
      return;
    }
    if (socket.destroyed) return;
    wss.handleUpgrade(raw, socket, head, (ws) => start(ws, prepared.route, prepared.request));
  }

  /** Matches the route, checks the method, admits, then validates parameters; throws to refuse. */
  async function prepare(raw: IncomingMessage): Promise<{ route: RouteDefinition; request: UntypedSessionRequest }> {
    requireHost(raw);
    const url = raw.url ?? '/';
    const path = pathOf(url);
    const query = parseQuery(url.slice(path.length));
    const found = routes.map((r) => ({ route: r.route, params: r.matcher.match(path) })).find((r) => r.params);
    if (found?.params == null)
      throw new HttpError(404, 'route_not_found', `No WebSocket endpoint has the path ${path}.`);
    const { route, params } = found;
    const method = raw.method ?? 'GET';
    if (method !== 'GET') {
      throw new HttpError(405, 'method_not_allowed', `${method} is not allowed; use GET.`, {
        headers: { allow: 'GET' },
      });
    }
    const auth = await admit(route, { method, path, headers: raw.headers, query, params, raw, log }, options);
    const { headers, ...checked } = validateRequest(route, { url, params, query, headers: raw.headers });
    return { route, request: { params: checked.params, query: checked.query, headers, auth, log, raw } };
  }

  /** Wraps the upgraded socket and runs the route's handler on it. */
  function start(ws: WebSocket, route: RouteDefinition, request: UntypedSessionRequest): void {
    const check = (value: unknown) => checkEvent(route, value, options.onResponseInvalid);
    const session = createSessionSocket(ws, {
      pingIntervalMs: options.pingIntervalMs,
      ...(options.validateResponses ? { checkEvent: check } : {}),
    });
    track({ close: () => session.close(1001, 'server closing'), onClose: (listener) => session.onClose(listener) });
    runSession(options.handlers[route.operationId] as WebSocketHandler<UntypedSessionRequest>, request, session, log);
  }
}

/** The 400 for a request to a WebSocket route that does not ask for an upgrade. */
export function upgradeRequired(): HttpError {
  return invalidRequest([{ in: 'header', pointer: '/upgrade', message: 'must be websocket on a WebSocket endpoint' }]);
}

/** Runs the handler; a throw or rejection is logged and closes the session with 1011. */
function runSession(
  handler: WebSocketHandler<UntypedSessionRequest>,
  request: UntypedSessionRequest,
  session: SessionSocket,
  log: FastifyBaseLogger,
) {
  const fail = (error: unknown) => {
    log.error({ err: error }, 'WebSocket handler failed');
    session.close(1011, 'internal error');
  };
  try {
    Promise.resolve(handler(request, session)).catch(fail);
  } catch (error) {
    fail(error);
  }
}

/**
 * Another protocol upgrade (e.g. `Upgrade: h2c` from `curl --http2`) is ignored: Fastify answers the request as
 * plain HTTP/1.1 on the socket, which then closes.
 */
function answerAsHttp(app: FastifyInstance, raw: IncomingMessage, socket: Duplex): void {
  const response = new ServerResponse(raw);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as Socket);
  response.once('finish', () => socket.end());
  app.routing(raw, response);
}
