/**
 * The types user code implements: `authenticate`, and one handler per operation (http, sse or websocket).
 * The generated code narrows the type parameters per operation; the runtime only sees the erased forms.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RawQuery } from './query.js';
import type { RouteDefinition } from './route.js';
import type { SessionSocket } from './session-socket.js';
import type { SseStream } from './sse.js';

/** A request as it arrived, before validation: what `authenticate` sees, for every transport. */
export interface IncomingRequest {
  readonly method: string;
  /** The path without the query string, as sent (percent-encoded). */
  readonly path: string;
  /** Lower-cased names. */
  readonly headers: IncomingHttpHeaders;
  readonly query: RawQuery;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly raw: IncomingMessage;
  readonly log: FastifyBaseLogger;
}

/**
 * Checks credentials and returns what handlers receive as `auth`; throws `HttpError` 401 or 403 to refuse.
 * Called first for every route (before the Service-Version check and before the parameters and the body are read),
 * with `route.security` telling which schemes apply.
 */
export type Authenticate<Auth> = (request: IncomingRequest, route: RouteDefinition) => Auth | Promise<Auth>;

/**
 * A validated HTTP or SSE request: parameters decoded from their styles into their schemas' types, headers with
 * lower-cased names, the declared cookie parameters.
 */
export interface CasiRequest<
  Params = Record<string, string>,
  Query = Record<string, unknown>,
  Headers = IncomingHttpHeaders,
  Body = unknown,
  Auth = unknown,
  Cookies = Readonly<Record<string, unknown>>,
> {
  readonly params: Params;
  readonly query: Query;
  readonly headers: Headers;
  readonly cookies: Cookies;
  readonly body: Body;
  readonly auth: Auth;
  readonly log: FastifyBaseLogger;
  readonly raw: FastifyRequest;
}

/** A validated WebSocket handshake request. */
export interface SessionRequest<
  Params = Record<string, string>,
  Query = Record<string, unknown>,
  Headers = IncomingHttpHeaders,
  Auth = unknown,
> {
  readonly params: Params;
  readonly query: Query;
  readonly headers: Headers;
  readonly auth: Auth;
  readonly log: FastifyBaseLogger;
  readonly raw: IncomingMessage;
}

/** An HTTP answer; the generated code narrows it to a union of `{ status: 200; body: X } | …`. */
export interface HttpResult {
  readonly status: number;
  /**
   * The body (JSON unless the response declares another media type). A frozen body is taken as immutable, deeply:
   * it is serialised, and checked when responses are validated, once for as long as it lives.
   */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a handler may answer a byte response (`application/octet-stream`, `image/png`, …) with. */
export type BinaryBody = Buffer | Uint8Array | ArrayBuffer | string | Blob | Readable;

/** Handles an `http` route. */
export type HttpHandler<Req = CasiRequest, Res extends HttpResult = HttpResult> = (req: Req) => Res | Promise<Res>;

/**
 * Handles an `sse` route: writes events to `stream` (which opens at the first write), or returns an answer
 * (e.g. `{ status: 204 }`) or throws `HttpError` before writing. Returning nothing leaves the stream open until
 * `stream.close()` or the client leaves.
 */
export type SseHandler<Req = CasiRequest, Res extends HttpResult = HttpResult> = (
  req: Req,
  stream: SseStream,
) => Res | undefined | Promise<Res | undefined>;

/** Handles a `websocket` route once the upgrade is done; messages that arrive before `onMessage` are kept. */
export type WebSocketHandler<Req = SessionRequest> = (req: Req, socket: SessionSocket) => void | Promise<void>;

/** Any handler, with its request type erased so that every narrowed handler is assignable to it. */
export type AnyHandler = HttpHandler<never> | SseHandler<never> | WebSocketHandler<never>;

/** Handlers by `operationId`. */
export type HandlerMap<H> = { readonly [K in keyof H]: AnyHandler };
