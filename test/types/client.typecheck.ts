/** Type tests of the generated client: typed bodies, queries, answers, list items, stream and session events. */
import type { Client } from '../../generated/src/client.gen.js';
import type {
  AgentMessageDeltaEvent,
  Conversation,
  ConversationListItem,
  CreateConversationResponse,
  ServerEvent,
} from '../../generated/src/types.gen.js';
import type { Equal, Expect } from './type-assert.js';

/** What the methods answer. */
export type ClientChecks = [
  Expect<Equal<Awaited<ReturnType<Client['conversations']['retrieve']>>, Conversation>>,
  Expect<Equal<Awaited<ReturnType<Client['conversations']['create']>>, CreateConversationResponse>>,
];

/** Right uses compile: lists iterate over items, the stream over events, the session narrows by type. */
export async function useClient(client: Client): Promise<string[]> {
  const out: string[] = [];
  const created = await client.conversations.create({ agent_id: 'ca_7Qk2Lm9Xa', channel: { type: 'chat_async' } });
  for await (const item of client.conversations.list({ limit: 50 })) {
    const typed: ConversationListItem = item;
    out.push(typed.id);
  }
  for await (const event of client.conversations.events(created.id)) {
    const typed: ServerEvent = event;
    if (typed.payload.type === 'agent.message.completed') out.push(typed.payload.text);
  }
  const session = client.conversations.session(created.id);
  session.on('agent.message.delta', (event) => {
    const typed: AgentMessageDeltaEvent = event;
    out.push(typed.payload.text_delta);
  });
  session.send({ payload: { type: 'user.message.send', text: 'Where is my order?' } });
  return out;
}

/** Wrong uses do not compile. */
export async function misuseClient(client: Client): Promise<void> {
  // @ts-expect-error `limit` is a number
  client.conversations.list({ limit: 'ten' });
  // @ts-expect-error no query parameter `colour`
  client.conversations.list({ colour: 'blue' });
  // @ts-expect-error `agent_id` is required
  await client.conversations.create({ channel: { type: 'chat_async' } });
  // @ts-expect-error `user.message.send` needs `text`
  client.conversations.session('conv_1').send({ payload: { type: 'user.message.send' } });
  // @ts-expect-error no event type `agent.message.deleted`
  client.conversations.session('conv_1').on('agent.message.deleted', () => {});
}
