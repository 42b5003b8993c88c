/**
 * The browser side of the browser test: the generated client, bundled for the browser, used with only the
 * conversation's ephemeral token (no API key reaches the page). `window.casiChat` runs one chat turn.
 */
import { createClient, MessageAssembler } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';

interface ChatInput {
  readonly baseUrl: string;
  readonly conversationId: string;
  readonly token: string;
  readonly text: string;
}

/** Sends `text` over the WebSocket session, ends the conversation, and reads the whole stream over SSE. */
async function casiChat(input: ChatInput) {
  const client = createClient({ baseUrl: input.baseUrl });
  const session = client.conversations.session(input.conversationId, { token: input.token });
  const sessionEvents: ServerEvent[] = [];
  const completed = new Promise<string>((resolve) => {
    session.on('agent.message.completed', (event) => resolve(event.payload.text));
  });
  session.on('conversation.ended', () => undefined);
  await session.ready;
  session.send({ id: 'cev_1', payload: { type: 'conversation.start' } });
  session.send({ id: 'cev_2', payload: { type: 'user.message.send', text: input.text } });
  const reply = await completed;
  session.send({ id: 'cev_3', payload: { type: 'conversation.end' } });

  let tooLong = '';
  try {
    session.send({ payload: { type: 'user.message.send', text: 'x'.repeat(4097) } });
  } catch (error) {
    tooLong = (error as Error).name;
  }

  const assembler = new MessageAssembler();
  const streamed: ServerEvent[] = [];
  for await (const event of client.conversations.events(input.conversationId, { token: input.token })) {
    streamed.push(event);
    assembler.feed(event);
  }
  for await (const event of session) {
    sessionEvents.push(event);
    if (event.payload.type === 'conversation.ended') break;
  }
  session.close();
  return {
    reply,
    tooLong,
    streamedTypes: streamed.map((e) => e.payload.type),
    streamedIds: streamed.map((e) => e.id),
    sessionIds: sessionEvents.map((e) => e.id),
    messages: assembler.messages.map((m) => ({ text: m.text, complete: m.complete })),
    hasWebSocket: typeof WebSocket === 'function',
  };
}

(globalThis as { casiChat?: typeof casiChat }).casiChat = casiChat;
document.body.dataset.ready = 'true';
