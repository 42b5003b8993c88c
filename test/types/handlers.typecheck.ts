/** Type tests of the generated `Handlers`: typed requests in, only declared status and body pairs out. */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Error as ApiError, Conversation, ConversationList } from '../../generated/src/types.gen.js';
import type { Equal, Expect } from './type-assert.js';

declare const conversation: Conversation;
declare const page: ConversationList;
declare const notFound: ApiError;

/** A handler answering declared pairs compiles, and sees typed parameters. */
export const getConversation: Handlers['getConversation'] = (req) => {
  const id: string = req.params.conversation_id;
  return id === 'conv_gone' ? { status: 404, body: notFound } : { status: 200, body: conversation };
};

/** The query reaches `listConversations` with its declared types. */
export const listConversations: Handlers['listConversations'] = (req) => {
  const limit: number | undefined = req.query.limit;
  // @ts-expect-error `limit` is a number, not a string
  const text: string | undefined = req.query.limit;
  // @ts-expect-error no query parameter `colour`
  const colour: unknown = req.query.colour;
  return limit === 0 ? { status: 400, body: { ...notFound, data: [text, colour] } } : { status: 200, body: page };
};

/** The body reaches `createConversation` with its declared type. */
export const createConversation: Handlers['createConversation'] = (req) => {
  const agent: string = req.body.agent_id;
  // @ts-expect-error no body member `agentId`
  const wrong: unknown = req.body.agentId;
  const channel = { type: 'chat_async' as const, token: 't', events_url: agent, callee_no: null, caller_no: null };
  return wrong === undefined ? { status: 200, body: { id: 'conv_1', channel } } : { status: 400, body: notFound };
};

/** Answers the operation does not declare do not compile. */
export const wrongAnswers: Handlers['getConversation'][] = [
  // @ts-expect-error a 200 of getConversation carries a Conversation
  () => ({ status: 200, body: { wrong: true } }),
  // @ts-expect-error getConversation declares no 418
  () => ({ status: 418, body: notFound }),
  // @ts-expect-error a 404 carries an Error, not a Conversation
  () => ({ status: 404, body: conversation }),
  // @ts-expect-error getConversation declares no 201
  async () => ({ status: 201, body: conversation }),
];

/** A handler is of its transport's kind. */
export type HandlerChecks = [
  Expect<Equal<Parameters<NonNullable<Handlers['streamConversationEvents']>>['length'], 2>>,
  Expect<Equal<ReturnType<NonNullable<Handlers['openConversationSession']>>, void | Promise<void>>>,
];

/** Handlers are optional (an operation without one answers its sample), but each given one is typed. */
export const partial: Handlers = { getConversation };
// @ts-expect-error a handler for getConversation must answer a declared pair
export const misTyped: Handlers = { getConversation: () => ({ status: 418 }) };
