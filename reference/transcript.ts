/** A conversation's transcript, rebuilt from its events, and the summary and sentiment derived from it. */
import type { Sentiment, ServerEvent } from '../generated/src/types.gen.js';

/** One turn: what the user said (`user.message.received`) or the agent's full text (`agent.message.completed`). */
export interface TranscriptTurn {
  readonly role: 'user' | 'agent';
  readonly text: string;
}

/** The turns of the events, in order. */
export function transcriptOf(events: readonly ServerEvent[]): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  for (const { payload } of events) {
    if (payload.type === 'user.message.received') turns.push({ role: 'user', text: payload.text });
    if (payload.type === 'agent.message.completed') turns.push({ role: 'agent', text: payload.text });
  }
  return turns;
}

/** `The customer sent N message(s); the agent replied M time(s).` */
export function summarize(turns: readonly TranscriptTurn[]): string {
  const user = turns.filter((t) => t.role === 'user').length;
  const agent = turns.length - user;
  return `The customer sent ${user} message${user === 1 ? '' : 's'}; the agent replied ${agent} time${agent === 1 ? '' : 's'}.`;
}

const POSITIVE = /\b(thanks|thank you|great|perfect|excellent|love)\b/i;
const NEGATIVE = /\b(bad|angry|terrible|awful|hate|useless|not happy)\b/i;

/** `negative` when a user turn has a negative word, else `positive` when one has a positive word, else `neutral`. */
export function sentimentOf(turns: readonly TranscriptTurn[]): Sentiment {
  const user = turns.filter((t) => t.role === 'user').map((t) => t.text);
  if (user.some((text) => NEGATIVE.test(text))) return 'negative';
  if (user.some((text) => POSITIVE.test(text))) return 'positive';
  return 'neutral';
}
