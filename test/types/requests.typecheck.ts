/** Type tests of the generated REST types: request bodies and query parameters, right and wrong. */
import type { CreateConversationRequest, operations, paths } from '../../generated/src/types.gen.js';
import type { Equal, Expect } from './type-assert.js';

/** A complete request body compiles. */
export const phoneCall: CreateConversationRequest = {
  agent_id: 'ca_7Qk2Lm9Xa',
  channel: { type: 'phone', callee_no: '+14155550123', caller_no: null, priority: 'normal' },
  livemode: true,
};

/** Bodies with a missing, mistyped or unknown member do not. */
export const wrongBodies: CreateConversationRequest[] = [
  // @ts-expect-error `agent_id` is required
  { channel: { type: 'chat_async' }, livemode: true },
  // @ts-expect-error a `phone` channel requires `callee_no`
  { agent_id: 'ca_7Qk2Lm9Xa', channel: { type: 'phone' }, livemode: true },
  // @ts-expect-error `channel.type` is phone, chat_realtime or chat_async
  { agent_id: 'ca_7Qk2Lm9Xa', channel: { type: 'email' }, livemode: true },
  // @ts-expect-error `livemode` is a boolean
  { agent_id: 'ca_7Qk2Lm9Xa', channel: { type: 'chat_async' }, livemode: 'yes' },
  // @ts-expect-error no member `agentId`
  { agentId: 'ca_7Qk2Lm9Xa', agent_id: 'ca_7Qk2Lm9Xa', channel: { type: 'chat_async' }, livemode: true },
];

type ListQuery = NonNullable<operations['listConversations']['parameters']['query']>;

/** The query of `listConversations`, as the client and the handlers see it. */
export type QueryChecks = [
  Expect<Equal<ListQuery, NonNullable<paths['/conversations']['get']['parameters']['query']>>>,
  Expect<Equal<ListQuery['limit'], number | undefined>>,
  Expect<Equal<ListQuery['cursor'], string | undefined>>,
];

/** A well-typed query compiles. */
export const firstPage: ListQuery = { limit: 50, created_at_gte: '2025-07-01T00:00:00Z' };

/** A mistyped or unknown query parameter does not. */
export const wrongQueries: ListQuery[] = [
  // @ts-expect-error `limit` is a number, not a string
  { limit: '50' },
  // @ts-expect-error `cursor` is a string
  { cursor: 3 },
  // @ts-expect-error no query parameter `colour`
  { colour: 'blue' },
];
