/** The route table entry the generator emits for each operation: path, transport, security and validators. */
import type { Validator } from '../shared/validation.js';

/** HTTP methods the runtime registers. */
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

/** How an operation talks: a JSON request/response, a Server-Sent Events stream, or a WebSocket session. */
export type Transport = 'http' | 'sse' | 'websocket';

/** A security scheme of the spec, by its name in `components.securitySchemes`; `authenticate` decides what it means. */
export type SecurityScheme = string;

/**
 * Whether the `Service-Version` header is `required`, or `optional` (the header or the `service_version` query
 * parameter may be absent, but a given value must be valid), or not checked at all (`none`).
 */
export type ServiceVersionRule = 'required' | 'optional' | 'none';

/** How a query parameter's string is turned into the type its schema expects before validation. */
export type QueryCoercion = 'integer' | 'number' | 'boolean';

/** A declared response: the validator of its body (none for empty bodies) and its media type. */
export interface ResponseDefinition {
  readonly validator?: Validator<unknown>;
  /** Defaults to `application/json` when the answer has a body. */
  readonly contentType?: string;
}

/** Validators of each request part; headers are checked with lower-cased names, so header schemas stay open. */
export interface RequestValidators {
  readonly params?: Validator<unknown>;
  readonly query?: Validator<unknown>;
  readonly headers?: Validator<unknown>;
  readonly body?: Validator<unknown>;
}

/** One operation of the route table. */
export interface RouteDefinition {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** OpenAPI form, e.g. `/conversations/{conversation_id}`. */
  readonly path: string;
  readonly transport: Transport;
  /** Empty when the operation needs no credentials. */
  readonly security: readonly SecurityScheme[];
  readonly serviceVersion: ServiceVersionRule;
  readonly validators: RequestValidators;
  readonly bodyRequired: boolean;
  /** Query parameters whose schema type is not a string, by name. */
  readonly queryCoercion: Readonly<Record<string, QueryCoercion>>;
  /** Keyed by status (`'200'`), range (`'4XX'`) or `'default'`. */
  readonly responses: Readonly<Record<string, ResponseDefinition>>;
  /** For `sse` and `websocket` routes: checks each JSON message the server sends when responses are validated. */
  readonly eventValidator?: Validator<unknown>;
}
