/**
 * Drives a live chat through a direct session with the generated client: long messages until the conversation's
 * log holds enough events, then `conversation.end`. Also reads a conversation's whole history back over SSE.
 */
import type { Client } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';

/** What `driveChat` does. */
export interface ChatPlan {
  /** Keep sending until the log has at least this many events. */
  readonly minEvents: number;
  /** Words per user message (the reply echoes them, in up to 32 deltas). */
  readonly words?: number;
  /** Milliseconds to wait between messages (0: as fast as the server answers). */
  readonly pauseMs?: number;
  /** Most messages sent, whatever the count (a bound on the loop). */
  readonly maxMessages?: number;
  /** Called after each completed reply with the number of events so far. */
  readonly onProgress?: (events: number) => void;
}

/** Starts a chat conversation with `agentId` and answers its id. */
export async function startChat(client: Client, agentId: string): Promise<string> {
  return (await client.conversations.create({ agent_id: agentId, channel: { type: 'chat_realtime' } })).id;
}

/** Sends messages over a session until `plan.minEvents`, ends the conversation, and answers every event seen. */
export async function driveChat(client: Client, conversationId: string, plan: ChatPlan): Promise<ServerEvent[]> {
  const session = client.conversations.session(conversationId);
  const events: ServerEvent[] = [];
  const iterator = session[Symbol.asyncIterator]();
  const nextOf = async (type: string): Promise<void> => {
    for (let guard = 0; guard < 10_000; guard++) {
      const next = await iterator.next();
      if (next.done) throw new Error(`the session ended before ${type}`);
      events.push(next.value);
      if (next.value.payload.type === type) return;
    }
    throw new Error(`no ${type} in 10000 events`);
  };
  try {
    for (let sent = 0; events.length < plan.minEvents && sent < (plan.maxMessages ?? 500); sent++) {
      const text = Array.from({ length: plan.words ?? 40 }, (_, i) => `word${sent}_${i}`).join(' ');
      session.send({ id: `msg_${sent}`, payload: { type: 'user.message.send', text } });
      await nextOf('agent.message.completed');
      plan.onProgress?.(events.length);
      if (plan.pauseMs) await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
    }
    session.send({ payload: { type: 'conversation.end' } });
    await nextOf('conversation.ended');
  } finally {
    session.close();
  }
  return events;
}

/** The conversation's whole history, read over a fresh SSE stream (the conversation must have ended). */
export async function history(client: Client, conversationId: string): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  for await (const event of client.conversations.events(conversationId)) events.push(event);
  return events;
}
