/**
 * The CASI server runtime: spec-independent Fastify 5 glue, copied verbatim into `generated/src/runtime/server/`.
 *
 * Seams:
 * - The generator emits `server.gen.ts` with a `RouteDefinition[]` (one per operation: OpenAPI path, method,
 *   transport, security, Service-Version rule, precompiled validators of params/query/headers/body, query
 *   coercions, parameter styles to decode, the request media type when not JSON, declared responses, and for
 *   streams the event validator) and a handlers interface that narrows
 *   `HttpHandler<CasiRequest<P, Q, H, B, Auth>, Res>`, `SseHandler<…>` and `WebSocketHandler<SessionRequest<…>>`
 *   per operation (`Res` a union such as `{ status: 200; body: Conversation } | { status: 404; body: Error }`).
 *   Header validators get every header with lower-cased names, so header schemas must allow other properties.
 * - The reference server (or any user) calls `casiRoutes(app, { routes, handlers, authenticate })` on its root
 *   Fastify instance before `listen`; `authenticate(request, route)` returns the `auth` handlers receive, or throws
 *   `HttpError` 401/403. Handlers return `{ status, body?, headers? }` or throw `HttpError`; SSE handlers write to
 *   an `SseStream`; WebSocket handlers talk through a `SessionSocket`.
 * - Order per request: 404/405 → Service-Version → `authenticate` → body read (413, malformed JSON) → decoding
 *   of parameter styles and non-JSON bodies (415 for another media type) → validation of path, query, headers and
 *   body (one 400 `invalid_request` listing all problems) → handler → (tests) response
 *   validation. Anything thrown that is not an `HttpError` answers 500 `internal_error` and is logged.
 */
export { admit } from './admission.js';
export { BodyGuard, type BodyLimits } from './body-guard.js';
export { applyCors, preflightHeaders } from './cors.js';
export { type ErrorAnswer, toErrorAnswer } from './error-handler.js';
export {
  describeProblem,
  type ErrorBody,
  errorBody,
  HttpError,
  type HttpErrorOptions,
  invalidRequest,
  pathNamesNothing,
  type RequestPart,
  type RequestProblem,
} from './errors.js';
export { type EventStreamItems, eventStreamOf } from './event-stream-answer.js';
export { casiServerOptions, clientErrorAnswer } from './framework-errors.js';
export type {
  AnyHandler,
  Authenticate,
  BinaryBody,
  CasiRequest,
  HandlerMap,
  HttpHandler,
  HttpResult,
  IncomingRequest,
  SessionRequest,
  SseHandler,
  WebSocketHandler,
} from './handlers.js';
export { type CasiRoutesOptions, DEFAULT_SERVICE_VERSION } from './options.js';
export {
  type Decode,
  decodeQuery,
  decodeText,
  formDecode,
  percentDecode,
  type RawPairs,
  rawCookiePairs,
  rawQueryPairs,
} from './parameter-styles.js';
export { compilePath, type PathMatcher, toFastifyPath } from './path.js';
export { casiRoutes } from './plugin.js';
export { coerceQuery, coerceScalar, parseQuery, type RawQuery } from './query.js';
export { type CheckedRequest, MAX_BODY_DEPTH, tooDeep, type UncheckedRequest, validateRequest } from './request.js';
export { decodeBody, unsupportedMediaType } from './request-body.js';
export {
  type OnResponseInvalid,
  type ResponseProblem,
  ResponseValidationError,
  throwResponseProblem,
} from './response.js';
export type {
  HttpMethod,
  ParameterDecoding,
  ParameterLocation,
  QueryCoercion,
  RequestMedia,
  RequestValidators,
  ResponseDefinition,
  RouteDefinition,
  Scalar,
  SecurityScheme,
  ServiceVersionRule,
  Transport,
  ValueShape,
} from './route.js';
export { checkServiceVersion, SERVICE_VERSION_QUERY } from './service-version.js';
export { MAX_EARLY_MESSAGES, type SessionSocket } from './session-socket.js';
export { SSE_HEADERS, type SseOpenOptions, type SseStream } from './sse.js';
export { formatComment, formatMessage, formatRetry, type SseMessage } from './sse-format.js';
