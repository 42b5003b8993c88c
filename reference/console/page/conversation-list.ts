/** The conversation list: refreshed every few seconds, newest first; a click opens a conversation. */
import type { ConsoleConversation, ConsoleConversationList } from '../types.js';
import { listConversations } from './api.js';
import { byId, clock, h } from './dom.js';

/** How often the list is refreshed while the page is visible. */
export const REFRESH_MS = 2_000;

/** Keeps `#conversations` up to date and reports clicks. */
export class ConversationList {
  readonly #list = byId('conversations');
  readonly #empty = byId('list-empty');
  readonly #error = byId('list-error');
  #selected: string | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly onOpen: (conversation: ConsoleConversation) => void,
    private readonly onUpdate: (list: ConsoleConversationList) => void,
  ) {}

  /** Loads the list now and then every `REFRESH_MS` while the page is visible. */
  start(): void {
    void this.refresh();
    this.#timer = setInterval(() => {
      if (document.visibilityState === 'visible') void this.refresh();
    }, REFRESH_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Marks the open conversation. */
  select(id: string): void {
    this.#selected = id;
    for (const item of this.#list.querySelectorAll<HTMLElement>('li')) {
      item.classList.toggle('selected', item.dataset.conversationId === id);
    }
  }

  /** Reloads the list. */
  async refresh(): Promise<void> {
    let list: ConsoleConversationList;
    try {
      list = await listConversations();
    } catch (error) {
      this.#error.textContent = `Cannot list conversations: ${(error as Error).message}`;
      this.#error.hidden = false;
      return;
    }
    this.#error.hidden = true;
    this.#empty.hidden = list.data.length > 0;
    this.#list.replaceChildren(...list.data.map((c) => this.item(c)));
    this.onUpdate(list);
  }

  private item(conversation: ConsoleConversation): HTMLElement {
    const { id, status, channel_type: channel, own } = conversation;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'open',
        title: own ? 'Open' : 'Open: the console issues a new token, which replaces the current one',
      },
      h('span', { class: 'id' }, id),
      h(
        'span',
        { class: 'line' },
        h('span', { class: 'pill status', 'data-status': status }, status),
        h('span', { class: 'channel' }, channel ?? 'unknown'),
        h('time', { datetime: conversation.created_at }, clock(conversation.created_at)),
        !own && h('span', { class: 'foreign' }, 'new token'),
      ),
    );
    button.addEventListener('click', () => this.onOpen(conversation));
    return h(
      'li',
      {
        'data-conversation-id': id,
        'data-status': status,
        'data-own': String(own),
        class: id === this.#selected ? 'selected' : undefined,
      },
      button,
    );
  }
}
