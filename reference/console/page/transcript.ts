/**
 * The conversation as people read it, rebuilt from its events: user messages, agent messages assembled from their
 * deltas (`MessageAssembler`), tool calls paired with their results (`ToolCallTracker`), and notes for context and
 * custom-field updates, the start, the end and errors. Each item is updated in place as its events arrive.
 */
import { type AgentMessage, MessageAssembler, ToolCallTracker } from '../../../generated/src/client.gen.js';
import type { ServerEvent } from '../../../generated/src/types.gen.js';
import { clock, h, nodes } from './dom.js';

/** Renders one conversation's events into `root`. */
export class Transcript {
  readonly #assembler = new MessageAssembler();
  readonly #tools = new ToolCallTracker<ServerEvent>();
  /** Items that later events update: `gen:<generation_id>`, `call:<call_id>`. */
  readonly #items = new Map<string, HTMLElement>();

  /** `userLabel` names the user's messages: `You` in a chat driven from the console, `Customer` otherwise. */
  constructor(
    private readonly root: HTMLElement,
    private readonly userLabel: string,
  ) {}

  /** Shows what `event` changes. */
  add(event: ServerEvent): void {
    const p = event.payload;
    if (p.type === 'user.message.received') {
      this.append(h('div', { class: 'msg user' }, h('span', { class: 'who' }, this.userLabel), p.text));
    } else if (p.type === 'agent.message.delta' || p.type === 'agent.message.completed') {
      const message = this.#assembler.feed(event);
      if (message !== undefined) this.showMessage(message);
    } else if (p.type === 'agent.tool_call.created' || p.type === 'agent.tool_call.returned') {
      this.#tools.feed(event);
      this.showToolCall(p.call_id);
    } else {
      const { kind, text, data } = noteOf(event);
      this.note(kind, text, data);
    }
  }

  /** A line of the console's own (a refused send, a lost connection). */
  notice(text: string): void {
    this.note('error', text);
  }

  private showMessage(message: AgentMessage): void {
    const key = `gen:${message.generationId}`;
    let item = this.#items.get(key);
    if (item === undefined) {
      item = h('div', { class: 'msg agent', 'data-generation-id': message.generationId });
      this.#items.set(key, item);
      this.append(item);
    }
    item.dataset.complete = String(message.complete);
    const flags = [message.hasToolCalls && 'used tools', message.interrupted && 'interrupted'].filter(Boolean);
    item.replaceChildren(
      ...nodes(
        h(
          'span',
          { class: 'who' },
          'Agent',
          flags.length > 0 && h('span', { class: 'flags' }, ` · ${flags.join(', ')}`),
        ),
        message.text,
        !message.complete && h('span', { class: 'typing', 'aria-label': 'streaming' }),
      ),
    );
    this.scroll();
  }

  private showToolCall(callId: string): void {
    const key = `call:${callId}`;
    let item = this.#items.get(key);
    if (item === undefined) {
      item = h('div', { class: 'tool-call', 'data-call-id': callId });
      this.#items.set(key, item);
      this.append(item);
    }
    const done = this.#tools.completed.find((pair) => pair.callId === callId);
    const created = done?.created ?? this.#tools.pending.find((c) => c.payload.call_id === callId);
    const returned = done?.returned.payload;
    const call = created?.payload ?? returned;
    if (call === undefined) return;
    const state = returned === undefined ? 'pending' : returned.error === undefined ? 'returned' : 'failed';
    item.dataset.state = state;
    item.replaceChildren(
      h(
        'div',
        { class: 'tool-head' },
        h('span', { class: 'tool-label' }, 'Tool call'),
        h('code', {}, `${call.name}(${call.arguments})`),
      ),
      returned === undefined
        ? h('div', { class: 'tool-result pending' }, 'waiting for the result…')
        : h(
            'div',
            { class: `tool-result ${state}` },
            returned.error === undefined ? `→ ${returned.result}` : `✗ ${returned.error}`,
          ),
    );
    this.scroll();
  }

  private note(kind: string, text: string, data?: unknown): void {
    this.append(
      h(
        'div',
        { class: `note ${kind}` },
        text,
        data !== undefined && h('code', { class: 'data' }, JSON.stringify(data)),
      ),
    );
  }

  private append(item: HTMLElement): void {
    this.root.append(item);
    this.scroll();
  }

  private scroll(): void {
    this.root.scrollTop = this.root.scrollHeight;
  }
}

/** A one-line note in the transcript. */
interface Note {
  readonly kind: 'lifecycle' | 'ended' | 'context' | 'custom-field' | 'error' | 'other';
  readonly text: string;
  readonly data?: unknown;
}

/** The note for an event that is neither a message nor a tool call. */
function noteOf(event: ServerEvent): Note {
  const p = event.payload;
  const at = clock(event.created_at);
  switch (p.type) {
    case 'conversation.context.updated':
      return {
        kind: 'context',
        text: `Context updated${p.trigger_response ? ' (the agent answers)' : ''}`,
        data: p.data,
      };
    case 'conversation.custom_fields.updated': {
      const was = p.old_value === undefined ? '' : ` (was ${JSON.stringify(p.old_value)})`;
      return { kind: 'custom-field', text: `Custom field ${p.key} = ${JSON.stringify(p.new_value)}${was}` };
    }
    case 'conversation.setup':
      return { kind: 'lifecycle', text: `Set up · ${p.channel.type} · ${p.direction} · ${at}` };
    case 'conversation.started':
      return { kind: 'lifecycle', text: `Started · ${at}` };
    case 'conversation.ended':
      return { kind: 'ended', text: `Ended${p.ended_by === undefined ? '' : ` by ${p.ended_by}`} · ${at}` };
    case 'agent.customer.loaded':
      return { kind: 'lifecycle', text: `Customer loaded${p.phone_no === undefined ? '' : ` · ${p.phone_no}`}` };
    case 'server.error':
      return { kind: 'error', text: `Error: ${p.error}` };
    default:
      return { kind: 'other', text: p.type, data: 'data' in p ? p.data : undefined };
  }
}
