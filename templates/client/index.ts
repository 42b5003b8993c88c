/**
 * The spec-independent runtime of the typed client, copied verbatim to `generated/src/runtime/client/`.
 *
 * How the generated client (`generated/src/client.gen.ts`) uses it — one method per operation, grouped by resource:
 *
 * ```ts
 * const core = createCore<paths>({ ...options, serviceVersion: '2025-06-19' });
 * const conversations = {
 *   create: (body: CreateConversationRequest, opts?: CallOptions) =>
 *     core.request('post', '/conversations', { body, ...opts }),
 *   retrieve: (conversationId: string, opts?: CallOptions) =>
 *     core.request('get', '/conversations/{conversation_id}', {
 *       params: { path: { conversation_id: conversationId } }, ...opts }),
 *   list: (query: ListConversationsQuery = {}, opts?: CallOptions) =>               // x-casi-paginated: data
 *     paginate((cursor) => core.request('get', '/conversations', {
 *       params: { query: { ...query, cursor } }, ...opts }), 'data'),
 *   events: (conversationId: string, opts: StreamCallOptions = {}) =>              // x-casi-transport: sse
 *     streamEvents<ServerEvent>({
 *       ...core.transport,
 *       url: core.url('/conversations/{conversation_id}/events', { path: { conversation_id: conversationId } }),
 *       loadValidator: () => import('./validators.events.gen.js').then((v) => v.validateServerEvent),
 *       isTerminal: (e) => e.payload.type === 'conversation.ended',
 *       ...opts }),
 *   session: (conversationId: string, opts: SessionCallOptions = {}) =>            // x-casi-transport: websocket
 *     openLazySession<ServerEvent, ClientEvent>({
 *       ...core.transport,
 *       url: core.url('/conversations/{conversation_id}/session', { path: { conversation_id: conversationId } }),
 *       loadValidators: () => import('./validators.events.gen.js').then((v) => ({
 *         server: v.validateServerEvent, client: v.validateClientEvent })),
 *       isTerminal: (e) => e.payload.type === 'conversation.ended',
 *       ...opts }),
 * };
 * // Error classes narrowed to the spec's codes (x-casi-error-codes), `instanceof` still works, usable as a type:
 * export const CasiApiError: ApiErrorClass<ErrorCode | (string & {})> = ApiError;
 * export type CasiApiError = ApiError<ErrorCode | (string & {})>;
 * ```
 *
 * The stream readers (`sse-reader.ts`, `event-stream-items.ts`), the session code (`websocket.ts`, `socket.ts`) and
 * the validators load with dynamic `import()`s when a stream is read or a session opens, so a bundler that splits
 * code (esbuild `splitting`, Vite, webpack) leaves them out of the chunk a REST-only page loads. This module
 * therefore exports no value from those files: `openSession`, which opens a session at once with validators at
 * hand, is imported from `websocket.js`.
 *
 * Exported API: `createCore` (REST: `request`, `raw`, `url`, `transport`), the error classes (the shared
 * `ValidationError` among them) and `errorFromResponse`, the retry helpers, `paginate`, `streamEvents`/`EventStream`, `openLazySession`/`Session`,
 * `MessageAssembler`, `ToolCallTracker`.
 */

export { ValidationError, type ValidationIssue } from '../shared/errors.js';
export { ApiPromise, type WithResponse } from './api-promise.js';
export type { BinaryBody } from './body-encoding.js';
export {
  type CallOptions,
  type Core,
  type CoreOptions,
  createCore,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  type OperationMedia,
  type PathsWithSentHeaders,
  type RequestResult,
  type ResolvedCoreOptions,
  type SuccessData,
} from './core.js';
export {
  ApiConnectionError,
  ApiError,
  type ApiErrorClass,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  BadRequestError,
  CasiError,
  ConflictError,
  checkTextLength,
  DEFAULT_MAX_TEXT_LENGTH,
  type ErrorBody,
  errorFromResponse,
  InternalServerError,
  isErrorBody,
  MessageTooLongError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TeapotError,
  UNKNOWN_ERROR_CODE,
} from './errors.js';
export type { EventReadingOptions } from './event-reading.js';
export type { ReadAs } from './exchange.js';
export { itemsOf } from './items.js';
export { type EventValidators, type LazySessionOptions, openLazySession } from './lazy-session.js';
export {
  type AgentMessage,
  type EventLike,
  MessageAssembler,
  type ToolCallCreated,
  type ToolCallEvent,
  type ToolCallPair,
  type ToolCallReturned,
  ToolCallTracker,
} from './messages.js';
export type { HookOptions, Logger, LogLevel, RequestInfo, ResponseInfo } from './observe.js';
export { MAX_PAGES, type PageItem, type Paginated, paginate } from './pagination.js';
export type { ParameterWriters } from './parameter-defaults.js';
export type { ParameterStyle, ParameterStyles, StyleOf } from './parameter-styles.js';
export { buildUrl, styledWriters } from './parameter-styles.js';
export type { ReconnectOptions } from './reconnect.js';
export {
  backoffDelay,
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RECONNECTS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  isRetryable,
  type RetryPolicy,
  retryAfterMs,
  retryDelay,
  sleep,
  withRetry,
} from './retry.js';
export { type Credentials, placeCredentials, type SecurityScheme, type SecuritySchemes } from './security.js';
export type { WebSocketConstructor, WebSocketLike } from './socket.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  EventStream,
  type StreamCallOptions,
  type StreamEventsOptions,
  streamEvents,
} from './sse.js';
export {
  type CallHeaders,
  type FetchLike,
  mergeHeaders,
  type TokenProvider,
  type TransportOptions,
} from './transport.js';
export type { UrlParams } from './url.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhook.js';
export type {
  EventOfType,
  Session,
  SessionCallOptions,
  SessionOptions,
  SessionState,
  TypedEvent,
} from './websocket.js';
