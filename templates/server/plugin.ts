/** `casiRoutes`: registers a route table and its handlers on a Fastify instance, with the CASI error model. */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type MediaKind, mediaKind } from '../shared/media.js';
import { admit } from './admission.js';
import { BodyGuard } from './body-guard.js';
import { createCloseables, type Track } from './closeables.js';
import { applyCors, preflightHeaders } from './cors.js';
import { declaredErrorReply } from './declared-errors.js';
import { toErrorAnswer } from './error-handler.js';
import { HttpError } from './errors.js';
import { jsonOf } from './frozen.js';
import type { CasiRequest, HttpHandler, HttpResult, IncomingRequest, SseHandler } from './handlers.js';
import { requireHost } from './host.js';
import { charsetProblem, parseJsonBody } from './json-body.js';
import { mediaAnswer } from './media-answer.js';
import { notFound, watchRoutes } from './not-found.js';
import { type CasiRoutesOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { pathOf, toFastifyPath } from './path.js';
import { queryOf, type RawQuery } from './query.js';
import { validateRequest } from './request.js';
import { routeBody } from './request-body.js';
import { checkEvent, checkItem, checkResponse, findResponse } from './response.js';
import type { RouteDefinition } from './route.js';
import { createSseStream } from './sse.js';
import { attachWebSockets, upgradeRequired } from './websocket.js';

/**
 * Registers every route of `options.routes` on `app` (call it on the root instance, before `listen`), and sets
 * the instance's error handler (every error answer has the `Error` shape) and not-found handler (404/405).
 * Open SSE streams and WebSocket sessions are closed when the instance closes.
 */
export function casiRoutes<H, Auth = undefined>(app: FastifyInstance, options: CasiRoutesOptions<H, Auth>): void {
  const config = resolveOptions(options);
  acceptEmptyJson(app);
  if (config.routes.some((route) => route.requestMedia !== undefined || route.otherMedia !== undefined)) {
    acceptAnyMedia(app);
  }
  const { track, closeAll } = createCloseables();
  const allowedOn = watchRoutes(app);
  const answerNotFound = notFound(allowedOn);
  const bodies = new BodyGuard(config.bodyLimits);
  const send = errorSender(config);

  app.setErrorHandler((error, request, reply) => {
    const answer = toErrorAnswer(error, config.bodyLimit);
    if (answer.internal) request.log.error({ err: error }, 'internal error while answering a request');
    if (answer.aborted) request.log.info('the client closed the connection before its request body arrived');
    return send(reply, answer.error, request);
  });
  app.addHook('onRequest', async (request) => requireHost(request.raw));
  if (config.corsOrigin !== undefined) {
    const origin = config.corsOrigin;
    app.addHook('onRequest', async (request, reply) => applyCors(request.raw, reply.raw, origin));
  }
  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedOn(request.url);
    if (config.corsOrigin !== undefined && request.method === 'OPTIONS' && allowed.length > 0) {
      return reply.code(204).headers(preflightHeaders(allowed)).send();
    }
    return send(reply, answerNotFound(request.method, request.url));
  });
  app.addHook('preClose', async () => closeAll());
  const headDeclared = new Set(config.routes.filter((route) => route.method === 'HEAD').map((route) => route.path));
  for (const route of config.routes) registerRoute(app, route, config, track, bodies, !headDeclared.has(route.path));
  attachWebSockets(app, config, track);
}

/**
 * Reads an empty body sent with `Content-Type: application/json` as no body (many clients send the header on every
 * call, DELETE and body-less POST included); anything else is `parseJsonBody`'s: JSON, with members that could
 * change a prototype refused by name. The `+json` types (`application/merge-patch+json`, `application/problem+json`)
 * are JSON too, as `mediaKind` says.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  const parse = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    const charset = charsetProblem(request.headers['content-type']);
    if (charset !== undefined) {
      done(charset, undefined);
      return;
    }
    if (body === '') {
      done(null, undefined);
      return;
    }
    let value: unknown;
    try {
      value = parseJsonBody(String(body));
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, value);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser(SUFFIXED_JSON, { parseAs: 'string' }, parse);
}

/** `application/<anything>+json`, with or without parameters. */
const SUFFIXED_JSON = /^application\/[^/;\s]+\+json\s*(;|$)/i;

/**
 * Reads a body of any other media type (`text/plain` included, so that its charset is honoured) as bytes, for specs
 * with routes that declare non-JSON bodies: the route then checks the type against its declared one (415 when it
 * differs) and decodes it (`decodeBody`).
 */
function acceptAnyMedia(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** A request as the runtime builds it, before the generated types narrow it. */
type UntypedRequest = CasiRequest<unknown, unknown, unknown, unknown, unknown, unknown>;

/** The `auth` each admitted request carries, from `onRequest` to its handler. */
const authOf = new WeakMap<FastifyRequest, unknown>();

function registerRoute(
  app: FastifyInstance,
  route: RouteDefinition,
  config: ResolvedOptions,
  track: Track,
  bodies: BodyGuard,
  exposeHead: boolean,
): void {
  const handler = config.handlers[route.operationId];
  const method = route.transport === 'websocket' ? 'GET' : route.method;
  // Authentication and the Service-Version check come before the body is read: in an `onRequest` hook. Fastify
  // reads no body on GET, so GET routes admit in the handler and spare every request the hook.
  const admitInHook = method !== 'GET';
  app.route({
    method,
    url: toFastifyPath(route.path),
    bodyLimit: config.bodyLimit,
    // HEAD answers wherever GET does (the same checks and status, no body; an event stream ends after its headers),
    // unless the spec declares its own HEAD operation on the path.
    exposeHeadRoute: exposeHead,
    ...(admitInHook
      ? {
          onRequest: async (request: FastifyRequest) => {
            authOf.set(request, await admit(route, incoming(request), config));
          },
          preParsing: async (_request: FastifyRequest, _reply: FastifyReply, payload: Readable) =>
            bodies.watch(payload),
        }
      : {}),
    handler: async (request, reply) => {
      const auth = admitInHook ? authOf.get(request) : await admit(route, incoming(request), config);
      const { params, query, headers, cookies, body } = validateRequest(route, {
        url: request.url,
        params: request.params as Record<string, string>,
        query: queryOf(request.url, request.query as Record<string, unknown>),
        headers: request.headers,
        body: await routeBody(route, request.headers['content-type'], request.body),
      });
      const req: UntypedRequest = { params, query, headers, cookies, body, auth, log: request.log, raw: request };
      switch (route.transport) {
        case 'http':
          return sendResult(
            reply,
            route,
            await runChecked(route, config, () => (handler as HttpHandler<UntypedRequest>)(req)),
            config,
          );
        case 'sse':
          return serveSse(request, reply, route, config, handler as SseHandler<UntypedRequest>, req, track);
        case 'websocket':
          throw upgradeRequired();
      }
    },
  });
}

/** Runs a handler and, when responses are validated, checks what it returns or throws as `HttpError`. */
async function runChecked<R extends HttpResult | undefined>(
  route: RouteDefinition,
  config: ResolvedOptions,
  run: () => R | Promise<R>,
): Promise<R> {
  let result: R;
  try {
    result = await run();
  } catch (error) {
    if (config.validateResponses && error instanceof HttpError) {
      checkResponse(route, error.status, error.body, config.onResponseInvalid);
    }
    throw error;
  }
  if (config.validateResponses && result !== undefined) {
    checkResponse(route, result.status, result.body, config.onResponseInvalid);
  }
  return result;
}

/** Runs an SSE handler: the stream opens at its first write; before that the handler may answer or throw. */
async function serveSse(
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteDefinition,
  config: ResolvedOptions,
  handler: SseHandler<UntypedRequest>,
  req: UntypedRequest,
  track: Track,
): Promise<FastifyReply> {
  const check = (data: unknown) => checkEvent(route, data, config.onResponseInvalid);
  const stream = createSseStream(reply, {
    heartbeatMs: config.sseHeartbeatMs,
    headersOnly: request.method === 'HEAD',
    ...(config.validateResponses ? { checkEvent: check } : {}),
  });
  track(stream);
  let result: HttpResult | undefined;
  try {
    result = await runChecked(route, config, () => handler(req, stream));
  } catch (error) {
    if (!stream.opened) throw error;
    request.log.error({ err: error }, 'SSE handler failed after the stream opened');
    stream.close();
    return reply;
  }
  if (stream.opened) return reply;
  if (result === undefined) {
    stream.open();
    return reply;
  }
  return sendResult(reply, route, result, config);
}

/** The transport-neutral view of a Fastify request that `authenticate` receives. */
function incoming(request: FastifyRequest): IncomingRequest {
  return {
    method: request.method,
    path: pathOf(request.url),
    headers: request.headers,
    query: request.query as RawQuery,
    params: request.params as Record<string, string>,
    raw: request.raw,
    log: request.log,
  };
}

/** The media type of JSON answers whose response declares none. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a handler's answer: JSON unless the declared response says otherwise, then in that media type (text, bytes
 * or an event stream, see `mediaAnswer`), with the declared `content-type` unless the handler set one.
 */
function sendResult(
  reply: FastifyReply,
  route: RouteDefinition,
  result: HttpResult,
  config: ResolvedOptions,
): FastifyReply | Promise<FastifyReply> {
  reply.code(result.status);
  if (result.headers !== undefined) reply.headers(result.headers);
  if (result.body === undefined) return reply.send();
  const contentType = findResponse(route, result.status)?.contentType;
  if (contentType === undefined) return reply.type(JSON_CONTENT_TYPE).send(jsonOf(result.body));
  const kind = mediaKind(contentType);
  if (kind === 'json') return reply.type(`${contentType}; charset=utf-8`).send(jsonOf(result.body));
  const check = config.validateResponses
    ? (item: unknown) => checkItem(route, result.status, item, config.onResponseInvalid)
    : undefined;
  return sendMedia(reply, kind, contentType, result.body, check);
}

/** Sends a body of another kind than JSON (a `Blob` is read first, hence async). */
async function sendMedia(
  reply: FastifyReply,
  kind: MediaKind,
  contentType: string,
  body: unknown,
  check: ((item: unknown) => void) | undefined,
): Promise<FastifyReply> {
  const answer = await mediaAnswer(kind, contentType, body, check);
  if (!reply.hasHeader('content-type')) reply.type(answer.contentType);
  return reply.headers(answer.headers).send(answer.payload);
}

/** Sends an `Error` answer. */
function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type(JSON_CONTENT_TYPE).send(JSON.stringify(error.body));
}

/**
 * How error answers are sent: in the `Error` shape, or (`errorShape: 'declared'`) in the shape the matched
 * operation declares (`declaredErrorReply`; no request, or no route matched: nothing declared).
 */
function errorSender(
  config: ResolvedOptions,
): (reply: FastifyReply, error: HttpError, request?: FastifyRequest) => FastifyReply {
  if (config.errorShape === 'casi') return sendError;
  const byRoute = new Map(
    config.routes.map((route) => [
      routeKey(route.transport === 'websocket' ? 'GET' : route.method, toFastifyPath(route.path)),
      route,
    ]),
  );
  return (reply, error, request) => {
    const { method, url } = request?.routeOptions ?? {};
    const methods = (Array.isArray(method) ? method : [method]).flatMap((m) => (m === 'HEAD' ? ['HEAD', 'GET'] : [m]));
    const route = methods.map((m) => byRoute.get(routeKey(String(m), String(url)))).find((r) => r !== undefined);
    const answer = declaredErrorReply(route, error);
    reply.code(answer.status).headers(answer.headers);
    if (answer.payload === undefined) return reply.send();
    return reply.type(answer.contentType ?? JSON_CONTENT_TYPE).send(answer.payload);
  };
}

function routeKey(method: string, fastifyPath: string): string {
  return `${method.toUpperCase()} ${fastifyPath}`;
}
