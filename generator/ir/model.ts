/** The intermediate representation: one normalised, sorted model of both documents. Emitters read only this. */

/** A JSON Schema (2020-12) object as written in the spec; references stay `#/components/schemas/<Name>`. */
export type JsonSchema = { readonly [key: string]: unknown };

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export type Transport = 'http' | 'sse' | 'websocket';
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** A named component schema. */
export interface IrSchema {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly inferred: boolean;
}

/** One parameter of an operation. */
export interface IrParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly description: string;
  /** How the value is serialised (OpenAPI `style`, `explode`), when the spec says. */
  readonly style?: string;
  readonly explode?: boolean;
  /** Declared with `content` of a JSON media type: the value travels as its JSON text, not in a style. */
  readonly json?: true;
  /** Where its schema is in the OpenAPI document, references followed; absent for an API key's query member. */
  readonly schemaPointer?: string;
}

/** One declared response: a status (`200`, `4XX`, `5XX`, `default`) with its body, if any. */
export interface IrResponse {
  readonly status: string;
  readonly description: string;
  readonly contentType?: string;
  readonly schema?: JsonSchema;
  /** For an event stream, the schema of one event's data where the spec gives it apart (OpenAPI 3.2 `itemSchema`). */
  readonly itemSchema?: JsonSchema;
  /** The media type's example (`example`, else the first of `examples`), when the spec gives one. */
  readonly example?: unknown;
  /** Names of the response headers. */
  readonly headers: readonly string[];
  /** Where `schema` is in the OpenAPI document, references followed. */
  readonly schemaPointer?: string;
}

/** One operation of the REST side (the SSE stream and the WebSocket handshake included, by transport). */
export interface IrOperation {
  readonly id: string;
  /**
   * The client resource it belongs to (`conversations`, `proceduralAgents`, …): its tag's `x-casi-resource`, else
   * its first tag, else the first segment of its path.
   */
  readonly resource: string;
  /** The method name on that resource: `x-casi-method`, else the operationId, else method and path, camel-cased. */
  readonly methodName: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Where it is in the OpenAPI document (`/paths/~1pets/get`). */
  readonly pointer: string;
  readonly transport: Transport;
  readonly summary: string;
  readonly description: string;
  readonly parameters: {
    readonly path: readonly IrParameter[];
    readonly query: readonly IrParameter[];
    readonly header: readonly IrParameter[];
    readonly cookie: readonly IrParameter[];
  };
  readonly requestBody?: {
    readonly required: boolean;
    readonly contentType: string;
    readonly schema: JsonSchema;
    /** Where `schema` is in the OpenAPI document, references followed. */
    readonly schemaPointer?: string;
    /**
     * The other media types declared with the same schema that carry a value the server reads the same way (JSON,
     * a form, multipart): the server accepts them too; the client sends `contentType`.
     */
    readonly otherContentTypes?: readonly string[];
  };
  readonly responses: readonly IrResponse[];
  /** Accepted security schemes; any one of them suffices. Empty: no authentication. */
  readonly security: readonly string[];
  /** Query parameters that carry credentials of those schemes (an API key `in: query`, e.g. `token`). */
  readonly credentialParameters: readonly IrParameter[];
  /** For cursor lists: the member that holds the items (`data` or `page`). */
  readonly paginated?: 'data' | 'page';
  /** For cursor lists: the component schema of one item. */
  readonly pageItem?: string;
  readonly inferred: boolean;
}

/** One event type: a server event (stream, session, webhook) or a client event (session). */
export interface IrEvent {
  /** The AsyncAPI message name, e.g. `AgentMessageDeltaEvent`. */
  readonly name: string;
  /** The `payload.type` tag, e.g. `agent.message.delta`. */
  readonly type: string;
  /** The component schema of the payload, e.g. `AgentMessageDelta`. */
  readonly payloadSchema: string;
  /** The envelope component schema: `ServerEvent` or `ClientEvent`. */
  readonly envelopeSchema: string;
  readonly direction: 'server' | 'client';
  /** The AsyncAPI channels that carry it. */
  readonly channels: readonly string[];
  readonly experimental: boolean;
  /** Whether nothing follows this event on a conversation's stream (`x-casi-terminal`). */
  readonly terminal: boolean;
  readonly summary: string;
  readonly examples: readonly unknown[];
}

/**
 * How a security scheme carries a credential: a bearer token (http bearer, OAuth 2, OpenID Connect), HTTP basic,
 * or an API key in a header, the query or a cookie. Other http schemes are sent as bearer tokens too.
 */
export type IrSecurityScheme =
  | { readonly type: 'bearer' }
  | { readonly type: 'basic' }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string };

/** An AsyncAPI message outside this service's event envelopes; its payload is the schema `schemaName`. */
export interface IrMessage {
  readonly name: string;
  readonly schemaName: string;
  /** The channels (names or addresses, as the document keys them) that carry it. */
  readonly channels: readonly string[];
  /** Where it is in the AsyncAPI document. */
  readonly pointer: string;
}

/**
 * The messages of one direction of a channel. `keys` maps each key a client narrows by to its messages: the values of
 * `discriminator` (a member every payload fixes with `const` or `enum`), or, without one, the message names.
 */
export interface IrChannelMessages {
  /** The names of the messages (`IrMessage.name`), sorted. */
  readonly messages: readonly string[];
  readonly discriminator?: string;
  readonly keys: Readonly<Record<string, readonly string[]>>;
}

/** A parameter of a channel address (`{symbol}`); its values are strings. */
export interface IrChannelParameter {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly description: string;
}

/** An AsyncAPI channel that carries plain messages, with how it is reached and what goes which way. */
export interface IrChannel {
  /** The channel's key in the document. */
  readonly name: string;
  /** Its address (3.x `address`, else the key), with `{parameter}`s. */
  readonly address: string;
  readonly pointer: string;
  /** `websocket` and `stream` (SSE or chunked HTTP) get a client; `unsupported` protocols only types and validators. */
  readonly kind: 'websocket' | 'stream' | 'unsupported';
  /** The protocols of its servers and bindings (`wss`, `mqtt`, …), sorted. */
  readonly protocols: readonly string[];
  /** The URL of its first WebSocket or HTTP server, variables set to their defaults. */
  readonly url: string | undefined;
  /** The HTTP method its `http` or `ws` bindings give (of the channel or its operations), upper case. */
  readonly method: string | undefined;
  readonly summary: string;
  /** The address parameters, in address order. */
  readonly parameters: readonly IrChannelParameter[];
  /** The component schemas of its `ws` binding's query and headers. */
  readonly query: string | undefined;
  readonly headers: string | undefined;
  /** What the client receives (3.x `send`, 2.6 `subscribe`) and sends (3.x `receive`, 2.6 `publish`). */
  readonly receive: IrChannelMessages;
  readonly send: IrChannelMessages;
  /** The schemes of its operations, else of its servers, by name in the document's order; any one suffices. */
  readonly security: Readonly<Record<string, IrSecurityScheme>>;
  /** The content type its messages are written in (`text/event-stream` makes a stream channel SSE). */
  readonly contentType: string | undefined;
}

/** One value of the service's `Error.code` table. */
export interface IrErrorCode {
  readonly code: string;
  readonly status: number;
  readonly transient: boolean;
  readonly description: string;
}

/** The whole model. Every list is sorted, so emitted output is deterministic. */
export interface Ir {
  /** The file names of the documents it was built from (`openapi.yaml`, `asyncapi.yaml`). */
  readonly documents: readonly string[];
  readonly title: string;
  /** `info.x-casi-package-name`, when the spec names its generated package. */
  readonly packageName: string | undefined;
  /** `info.version` of the OpenAPI document; the generated package's version. */
  readonly version: string;
  /** The only allowed `Service-Version` value, where the spec has the `ServiceVersion` schema (this service's). */
  readonly serviceVersion: string | undefined;
  readonly schemas: readonly IrSchema[];
  readonly operations: readonly IrOperation[];
  /** The OpenAPI document's security schemes, by name. */
  readonly securitySchemes: Readonly<Record<string, IrSecurityScheme>>;
  readonly events: readonly IrEvent[];
  /** The AsyncAPI messages that are not events of this service's envelopes. */
  readonly messages: readonly IrMessage[];
  /** The AsyncAPI channels that carry those messages. */
  readonly channels: readonly IrChannel[];
  readonly errorCodes: readonly IrErrorCode[];
  /** The parsed OpenAPI document, for the emitters that print its REST types. */
  readonly openapi: JsonSchema;
  /** What the IR had to decide that the author may want to know (a method name given twice, say). */
  readonly warnings: readonly IrWarning[];
}

/** A note of the IR stage, placed in a document by its pointer. */
export interface IrWarning {
  readonly document: 'openapi' | 'asyncapi';
  readonly pointer: string;
  readonly message: string;
  /** The rule the warning reports under; `casi/model` when none is given. */
  readonly rule?: string;
}
