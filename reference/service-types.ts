/** The facade's parameter and result types, derived from the generated `operations` so they follow the spec. */
import type { operations } from '../generated/src/types.gen.js';
import type { Principal } from './auth.js';

/** Every operationId. */
export type OperationId = keyof operations;

type OrEmpty<T> = [T] extends [never] ? Record<string, never> : T;

/** The path parameters of an operation (`{}` when it has none). */
export type PathParams<K extends OperationId> = operations[K]['parameters'] extends { path: infer P }
  ? P
  : Record<string, never>;

/** The query parameters of an operation (`{}` when it has none). */
export type QueryParams<K extends OperationId> = OrEmpty<NonNullable<operations[K]['parameters']['query']>>;

/** The JSON body of an operation (`undefined` when it takes none). */
export type RequestBody<K extends OperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : undefined;

/** The JSON body of an operation's 200 answer. */
export type ResponseBody<K extends OperationId> = operations[K]['responses'] extends {
  200: { content: { 'application/json': infer R } };
}
  ? R
  : never;

/** The operations the facade implements (all but the event stream and session, which have their own methods). */
export type FacadeOperationId = Exclude<
  OperationId,
  'streamConversationEvents' | 'openConversationSession' | 'receiveConversationSetup'
>;

/** The uniform shape of a facade method: `(auth, params, query, body)` → the 200 body, or a thrown `ServiceError`. */
export type ServiceMethod<K extends OperationId> = (
  auth: Principal,
  params: PathParams<K>,
  query: QueryParams<K>,
  body: RequestBody<K>,
) => Promise<ResponseBody<K>>;

/** One method per operationId; `createConversation` also takes where the server is reached. */
export type ServiceOperations = {
  readonly [K in Exclude<FacadeOperationId, 'createConversation'>]: ServiceMethod<K>;
} & {
  readonly createConversation: (
    ...args: [...Parameters<ServiceMethod<'createConversation'>>, RequestContext]
  ) => Promise<ResponseBody<'createConversation'>>;
};

/** Where the caller reaches this server, for the addresses in the create answer. */
export interface RequestContext {
  /** E.g. `http://127.0.0.1:4010`; `session_url` uses the matching `ws:`/`wss:` scheme. */
  readonly baseUrl: string;
}
