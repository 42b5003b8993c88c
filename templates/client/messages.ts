/** Consuming events: agent messages rebuilt from deltas per `generation_id`, tool calls paired by `call_id`. */

/** The least an event must look like; the generated `ServerEvent` fits. */
export interface EventLike {
  readonly payload: { readonly type: string };
}

/** An agent message as rebuilt so far. */
export interface AgentMessage {
  readonly generationId: string;
  /** The deltas appended so far, or the completed text once `complete`. */
  readonly text: string;
  /** `agent.message.completed` arrived. */
  readonly complete: boolean;
  /** The completed message was cut off (false until complete). */
  readonly interrupted: boolean;
  /** The completed message involved tool calls (false until complete). */
  readonly hasToolCalls: boolean;
}

function stringField(payload: object, name: string): string | undefined {
  const value = (payload as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Rebuilds agent messages: `agent.message.delta` appends `text_delta` to its `generation_id`, then
 * `agent.message.completed` replaces the text with its own; deltas after completion are ignored.
 */
export class MessageAssembler {
  readonly #messages = new Map<string, AgentMessage>();

  /** Feeds any event; returns the message it changed, or `undefined` when it changed none. */
  feed(event: EventLike): AgentMessage | undefined {
    const { payload } = event;
    const generationId = stringField(payload, 'generation_id');
    if (generationId === undefined) return undefined;
    const current = this.#messages.get(generationId);
    let next: AgentMessage;
    if (payload.type === 'agent.message.delta') {
      if (current?.complete) return undefined;
      const text = (current?.text ?? '') + (stringField(payload, 'text_delta') ?? '');
      next = { generationId, text, complete: false, interrupted: false, hasToolCalls: false };
    } else if (payload.type === 'agent.message.completed') {
      const flags = payload as { interrupted?: unknown; has_tool_calls?: unknown };
      next = {
        generationId,
        text: stringField(payload, 'text') ?? current?.text ?? '',
        complete: true,
        interrupted: flags.interrupted === true,
        hasToolCalls: flags.has_tool_calls === true,
      };
    } else {
      return undefined;
    }
    this.#messages.set(generationId, next);
    return next;
  }

  /** Every message, in the order its first event arrived. */
  get messages(): AgentMessage[] {
    return [...this.#messages.values()];
  }

  /** Messages still receiving deltas. */
  get pending(): AgentMessage[] {
    return this.messages.filter((message) => !message.complete);
  }

  /** Messages whose `agent.message.completed` arrived. */
  get completed(): AgentMessage[] {
    return this.messages.filter((message) => message.complete);
  }

  /** The message of one generation. */
  get(generationId: string): AgentMessage | undefined {
    return this.#messages.get(generationId);
  }
}

/** The tool-call events as the spec defines them (the default for `ToolCallTracker`). */
export type ToolCallEvent =
  | { payload: { type: 'agent.tool_call.created'; call_id: string; name: string; arguments: string } }
  | {
      payload: {
        type: 'agent.tool_call.returned';
        call_id: string;
        name: string;
        arguments: string;
        result: string;
        error?: string;
      };
    };

/** The `agent.tool_call.created` member of `E`. */
export type ToolCallCreated<E> = Extract<E, { payload: { type: 'agent.tool_call.created' } }>;
/** The `agent.tool_call.returned` member of `E`. */
export type ToolCallReturned<E> = Extract<E, { payload: { type: 'agent.tool_call.returned' } }>;

/** A returned call with its creation (`undefined` when the creation was not seen, e.g. after a resume). */
export interface ToolCallPair<E> {
  readonly callId: string;
  readonly created: ToolCallCreated<E> | undefined;
  readonly returned: ToolCallReturned<E>;
}

/** Pairs `agent.tool_call.created` with `agent.tool_call.returned` by `call_id`. */
export class ToolCallTracker<E extends EventLike = ToolCallEvent> {
  readonly #pending = new Map<string, ToolCallCreated<E>>();
  readonly #completed = new Map<string, ToolCallPair<E>>();

  /** Feeds any event; returns true when it was a tool-call event. */
  feed(event: EventLike): boolean {
    const callId = stringField(event.payload, 'call_id');
    if (callId === undefined) return false;
    if (event.payload.type === 'agent.tool_call.created') {
      if (!this.#completed.has(callId)) this.#pending.set(callId, event as ToolCallCreated<E>);
      return true;
    }
    if (event.payload.type === 'agent.tool_call.returned') {
      const created = this.#pending.get(callId) ?? this.#completed.get(callId)?.created;
      this.#pending.delete(callId);
      this.#completed.set(callId, { callId, created, returned: event as ToolCallReturned<E> });
      return true;
    }
    return false;
  }

  /** Calls created and not yet returned, in creation order. */
  get pending(): ToolCallCreated<E>[] {
    return [...this.#pending.values()];
  }

  /** Returned calls with their creation, in return order. */
  get completed(): ToolCallPair<E>[] {
    return [...this.#completed.values()];
  }
}
