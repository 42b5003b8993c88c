/** The route table entry the generator emits for each operation: path, transport, security and validators. */
import type { MediaKind } from '../shared/media.js';
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

/** The primitive type a piece of text is coerced to before validation (`string`: left as is). */
export type Scalar = 'string' | 'integer' | 'number' | 'boolean';

/**
 * The shape of a parameter or form field, for decoding text into it: a primitive, an array of primitives, an object
 * whose members are primitives (members not listed stay strings), or JSON text (form and multipart fields holding
 * objects, parameters declared with JSON `content`).
 */
export type ValueShape =
  | { readonly type: Scalar }
  | { readonly items: Scalar }
  | {
      readonly properties: Readonly<Record<string, Scalar>>;
      /** A deep object's members that are objects or arrays, by name (nested `name[a][b]=1`, repeated `name[a]=1`). */
      readonly members?: Readonly<Record<string, ValueShape>>;
    }
  | { readonly json: true };

/** How one parameter is serialised (OpenAPI `style` and `explode`, defaults filled in) and the shape it decodes to. */
export interface ParameterDecoding {
  readonly style: string;
  readonly explode: boolean;
  readonly shape: ValueShape;
}

/** Where a parameter is, as OpenAPI names it. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** The request media type of a route whose body is not JSON, with the shapes of its form or multipart fields. */
export interface RequestMedia {
  readonly type: string;
  readonly kind: MediaKind;
  /** Form and multipart fields by name; fields not listed stay strings (or files). */
  readonly fields?: Readonly<Record<string, ValueShape>>;
}

/** A status and body the route answers with when it has no handler. */
export interface SampleAnswer {
  readonly status: number;
  readonly body?: unknown;
}

/** A declared response: the validator of its body (none for empty bodies) and its media type. */
export interface ResponseDefinition {
  readonly validator?: Validator<unknown>;
  /** Defaults to `application/json` when the answer has a body. */
  readonly contentType?: string;
  /**
   * A value of its schema (present exactly when the response has a body): sent in place of an error body its schema
   * refuses, under the option `errorShape: 'declared'`.
   */
  readonly sample?: unknown;
}

/** Validators of each request part; headers are checked with lower-cased names, so header schemas stay open. */
export interface RequestValidators {
  readonly params?: Validator<unknown>;
  readonly query?: Validator<unknown>;
  readonly headers?: Validator<unknown>;
  /** Cookie parameters, read from the `Cookie` header (style `form`); open, as other cookies come along. */
  readonly cookies?: Validator<unknown>;
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
  /**
   * Parameters that need more than the query coercion to decode: a style or explode other than the default, an
   * array or object, a non-string path, header or cookie value. By location, then by name (header names lower-cased).
   */
  readonly parameters?: { readonly [L in ParameterLocation]?: Readonly<Record<string, ParameterDecoding>> };
  /** The declared request media type when it is not JSON (absent: JSON). */
  readonly requestMedia?: RequestMedia;
  /** Other media types declared with the same schema, accepted too (JSON among them where the body is a form). */
  readonly otherMedia?: readonly RequestMedia[];
  /** Keyed by status (`'200'`), range (`'4XX'`) or `'default'`. */
  readonly responses: Readonly<Record<string, ResponseDefinition>>;
  /**
   * The answer when no handler is given: the first success response with its example, or a value of its schema (a
   * list of items for an event stream). Absent when the spec declares nothing to answer.
   */
  readonly sampleAnswer?: SampleAnswer;
  /** For `sse` and `websocket` routes: checks each JSON message the server sends when responses are validated. */
  readonly eventValidator?: Validator<unknown>;
}
