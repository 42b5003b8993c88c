/**
 * The emulator's deterministic agent (no language model): answers user messages with generations (deltas, optional
 * tool call, completed), greets and says goodbye on calls, responds to context when asked, and ends idle async chats.
 */
import type { ContextData } from '../generated/src/types.gen.js';
import { newId } from './ids.js';
import { type PlannedToolCall, planReply, splitIntoDeltas } from './replies.js';
import type { LiveConversation } from './runtime.js';

/** Settings of the scripted agent. */
export interface ScriptedAgentOptions {
  /** Milliseconds without a client event after which a started `chat_async` conversation ends. */
  readonly chatAsyncIdleMs: number;
}

/** The name of the idle timer of async chats. */
export const IDLE_TIMER = 'chat-async-idle';

/** Behaviour shared by chat and phone conversations. */
export class ScriptedAgent {
  constructor(private readonly options: ScriptedAgentOptions) {}

  /**
   * A user message: starts a queued chat, emits `user.message.received`, then the reply (and, for `/field`,
   * `/hangup` and `/transfer`, its effect).
   */
  async userMessage(live: LiveConversation, text: string): Promise<void> {
    if (await live.start()) this.started(live);
    await live.emit({ type: 'user.message.received', text });
    this.touch(live);
    const plan = planReply(text, live.record.config);
    if (plan.field !== undefined) await live.setCustomField(plan.field.key, plan.field.value);
    await this.generate(live, plan.before, plan.toolCall, plan.after);
    if (plan.endedBy !== undefined) await live.end({ status: 'completed', endedBy: plan.endedBy });
  }

  /** Emits one generation: deltas of `before`, the tool call if any, deltas of `after`, then the completed text. */
  async generate(live: LiveConversation, before: string, toolCall?: PlannedToolCall, after = ''): Promise<void> {
    const generationId = newId('gen');
    for (const text of splitIntoDeltas(before)) {
      await live.emit({ type: 'agent.message.delta', text_delta: text, generation_id: generationId });
    }
    if (toolCall !== undefined) {
      const call = { call_id: newId('call'), name: toolCall.name, arguments: toolCall.arguments };
      await live.emit({ type: 'agent.tool_call.created', ...call });
      await live.emit({
        type: 'agent.tool_call.returned',
        ...call,
        result: toolCall.result,
        ...(toolCall.error === undefined ? {} : { error: toolCall.error }),
      });
    }
    for (const text of splitIntoDeltas(after)) {
      await live.emit({ type: 'agent.message.delta', text_delta: text, generation_id: generationId });
    }
    await live.emit({
      type: 'agent.message.completed',
      text: before + after,
      interrupted: false,
      has_tool_calls: toolCall !== undefined,
      generation_id: generationId,
    });
  }

  /** After a context update: with `trigger_response` on a started conversation, the agent acknowledges it. */
  async contextUpdated(live: LiveConversation, data: ContextData, triggerResponse: boolean): Promise<void> {
    this.touch(live);
    if (!triggerResponse || live.record.status !== 'in-progress') return;
    const pairs = Object.entries(data).map(([key, value]) => `${key}=${value}`);
    await this.generate(live, pairs.length === 0 ? 'Noted.' : `Noted: ${pairs.join(', ')}.`);
  }

  /** Call when a conversation has just started. */
  started(live: LiveConversation): void {
    this.touch(live);
  }

  /** Re-arms the idle timer of a started async chat: silence for the idle time ends it (no `ended_by`). */
  touch(live: LiveConversation): void {
    if (live.record.channel_type !== 'chat_async' || live.record.status !== 'in-progress') return;
    live.schedule(IDLE_TIMER, this.options.chatAsyncIdleMs, (later) => later.end({ status: 'completed' }));
  }

  /** The name the agent introduces itself with: its first persona's, or `your assistant`. */
  static displayName(live: LiveConversation): string {
    return live.record.config.personas[0]?.name ?? 'your assistant';
  }
}
