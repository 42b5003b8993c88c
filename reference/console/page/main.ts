/** The console page: the conversation list, the open conversation, and the "New chat" button. */
import type { ConsoleConversation, ConsoleConversationList, ConsoleOpened } from '../types.js';
import { createChat, openConversation } from './api.js';
import { ConversationList } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';
import { byId } from './dom.js';

const viewRoot = byId('view');
const newChat = byId<HTMLButtonElement>('new-chat');
let view: ConversationView | undefined;
/** Bumped on every open, so a slow answer for an older click is dropped. */
let opening = 0;

function show(conversation: ConsoleOpened): void {
  view?.close();
  view = new ConversationView(viewRoot, conversation, () => void list.refresh());
  view.start();
  list.select(conversation.id);
}

async function open(load: () => Promise<ConsoleOpened>): Promise<void> {
  const ticket = ++opening;
  try {
    const conversation = await load();
    if (ticket === opening) show(conversation);
  } catch (error) {
    if (ticket !== opening) return;
    view?.close();
    view = undefined;
    viewRoot.replaceChildren(
      Object.assign(document.createElement('p'), {
        className: 'error',
        textContent: `Cannot open the conversation: ${(error as Error).message}`,
      }),
    );
  }
}

const list = new ConversationList(
  (conversation: ConsoleConversation) => void open(() => openConversation(conversation.id)),
  (current: ConsoleConversationList) => {
    byId('org').textContent = `organisation ${current.org}`;
    const id = viewRoot.dataset.conversationId;
    const status = current.data.find((c) => c.id === id)?.status;
    if (view !== undefined && status !== undefined) view.setStatus(status);
  },
);

newChat.addEventListener('click', async () => {
  newChat.disabled = true;
  try {
    await open(createChat);
    await list.refresh();
  } finally {
    newChat.disabled = false;
  }
  document.getElementById('message')?.focus();
});

list.start();
document.body.dataset.ready = 'true';
