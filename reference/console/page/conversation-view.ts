/**
 * One open conversation: its header, the transcript, the event log and — for chats — the composer. Events come
 * from the generated client with the conversation's ephemeral token only: the WebSocket session for chats (which
 * also sends the user's messages), the SSE stream for other channels.
 */
import { createClient, type EventStream, type Session } from '../../../generated/src/client.gen.js';
import type { ClientEvent, ServerEvent } from '../../../generated/src/types.gen.js';
import type { ConsoleOpened } from '../types.js';
import { h } from './dom.js';
import { EventLog } from './event-log.js';
import { Transcript } from './transcript.js';

type Transport = 'session' | 'sse';

const CHAT_CHANNELS = new Set(['chat_realtime', 'chat_async']);

/** Renders `conversation` into `root` and streams its events until `close()`. */
export class ConversationView {
  readonly transport: Transport;
  readonly #root: HTMLElement;
  readonly #conversation: ConsoleOpened;
  readonly #status: HTMLElement;
  readonly #connection: HTMLElement;
  readonly #transcript: Transcript;
  readonly #log: EventLog;
  readonly #composer: HTMLFormElement | null;
  #source: Session<ServerEvent, ClientEvent> | EventStream<ServerEvent> | undefined;
  #closed = false;
  #sent = 0;

  /** `onChange` is called when the conversation starts or ends (the list then refreshes its status). */
  constructor(
    root: HTMLElement,
    conversation: ConsoleOpened,
    private readonly onChange: () => void = () => undefined,
  ) {
    this.#root = root;
    this.#conversation = conversation;
    this.transport = CHAT_CHANNELS.has(conversation.channel_type ?? '') ? 'session' : 'sse';
    this.#status = h('span', { class: 'pill status', 'data-status': conversation.status }, conversation.status);
    this.#connection = h('span', { class: 'connection', id: 'connection' }, 'connecting…');
    const transcript = h('div', { class: 'transcript', id: 'transcript', 'aria-live': 'polite' });
    const events = h('ol', { class: 'events', id: 'events' });
    const count = h('span', { class: 'count', id: 'event-count' }, '0');
    this.#transcript = new Transcript(transcript, this.transport === 'session' ? 'You' : 'Customer');
    this.#log = new EventLog(events, count);
    this.#composer = this.transport === 'session' ? this.composer() : null;
    root.dataset.conversationId = conversation.id;
    root.dataset.transport = this.transport;
    root.dataset.status = conversation.status;
    root.replaceChildren(
      h(
        'div',
        { class: 'conv-head' },
        h('h2', {}, h('code', {}, conversation.id)),
        this.#status,
        h('span', { class: 'pill' }, conversation.channel_type ?? 'unknown channel'),
        h('span', { class: 'pill transport' }, this.transport === 'session' ? 'WebSocket session' : 'SSE stream'),
        this.#connection,
      ),
      h(
        'div',
        { class: 'panes' },
        h(
          'section',
          { class: 'chat', 'aria-label': 'Transcript' },
          transcript,
          this.#composer ??
            h('p', { class: 'hint read-only' }, 'Read-only: this conversation is followed over its SSE event stream.'),
        ),
        h('aside', { class: 'log', 'aria-label': 'Events' }, h('h3', {}, 'Events ', count), events),
      ),
    );
  }

  /** Connects and shows events as they arrive. */
  start(): void {
    const client = createClient({ baseUrl: location.origin });
    const { id, token } = this.#conversation;
    if (this.transport === 'session') {
      const session = client.conversations.session(id, { token });
      this.#source = session;
      session.ready.then(
        () => this.connection('live', 'live'),
        () => undefined,
      );
    } else {
      this.#source = client.conversations.events(id, { token });
    }
    void this.read(this.#source);
  }

  /** Shows the status the conversation list reports. */
  setStatus(status: string): void {
    this.#status.textContent = status;
    this.#status.dataset.status = status;
    this.#root.dataset.status = status;
  }

  /** Disconnects; the view stays on screen until replaced. */
  close(): void {
    this.#closed = true;
    this.#source?.close();
  }

  private async read(source: AsyncIterable<ServerEvent>): Promise<void> {
    try {
      for await (const event of source) {
        if (this.#closed) return;
        if (this.transport === 'sse') this.connection('live', 'streaming');
        this.#transcript.add(event);
        this.#log.add(event);
        if (event.payload.type === 'conversation.started') this.setStatus('in-progress');
        if (event.payload.type === 'conversation.ended') this.ended();
        if (event.payload.type === 'conversation.started' || event.payload.type === 'conversation.ended') {
          this.onChange();
        }
      }
      if (!this.#closed) this.connection('done', this.transport === 'sse' ? 'stream ended' : 'closed');
    } catch (error) {
      if (this.#closed) return;
      this.connection('failed', 'disconnected');
      this.#transcript.notice(`Connection failed: ${(error as Error).message}`);
    }
  }

  private ended(): void {
    this.connection('done', this.transport === 'sse' ? 'stream ended' : 'conversation ended');
    for (const control of this.#composer?.querySelectorAll('textarea, button') ?? []) {
      (control as HTMLTextAreaElement | HTMLButtonElement).disabled = true;
    }
  }

  private connection(state: string, text: string): void {
    this.#connection.dataset.state = state;
    this.#connection.textContent = text;
  }

  private send(event: ClientEvent): boolean {
    const session = this.#source as Session<ServerEvent, ClientEvent>;
    this.#sent += 1;
    try {
      session.send({ ...event, id: `console_${this.#sent}` });
      return true;
    } catch (error) {
      this.#transcript.notice(`Not sent: ${(error as Error).message}`);
      return false;
    }
  }

  private composer(): HTMLFormElement {
    const input = h('textarea', {
      id: 'message',
      rows: '2',
      placeholder: 'Write a message — Enter sends, Shift+Enter adds a line',
      'aria-label': 'Message',
    });
    const form = h(
      'form',
      { class: 'composer', id: 'composer' },
      input,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'send' }, 'Send'),
        h('button', { type: 'button', id: 'end' }, 'End conversation'),
      ),
      h(
        'p',
        { class: 'hint' },
        'Try ',
        h('code', {}, '/tool order_lookup {"order": 7}'),
        ', ',
        h('code', {}, '/field plan gold'),
        ', a question about the weather, or ',
        h('code', {}, '/hangup'),
        '.',
      ),
    );
    const submit = () => {
      const text = input.value.trim();
      if (text === '') return;
      if (this.send({ payload: { type: 'user.message.send', text } })) input.value = '';
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submit();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        submit();
      }
    });
    form.querySelector('#end')?.addEventListener('click', () => this.send({ payload: { type: 'conversation.end' } }));
    return form;
  }
}
