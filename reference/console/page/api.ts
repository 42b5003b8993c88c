/**
 * The console page's calls to its server routes (`/console/api/…`), same origin. A server listening beyond loopback
 * asks for an API key (401): the page then asks the user for one and keeps it for the tab (`sessionStorage`).
 */
import type { ConsoleConversationList, ConsoleOpened } from '../types.js';

const KEY_ITEM = 'casi-console-key';

async function call<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  const request = () => {
    const key = sessionStorage.getItem(KEY_ITEM);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    return fetch(`/console/api/${path}`, { method, headers });
  };
  let response = await request();
  if (response.status === 401) {
    const key = window.prompt('This server asks for an API key of the organisation the console shows:');
    if (key !== null && key.trim() !== '') {
      sessionStorage.setItem(KEY_ITEM, key.trim());
      response = await request();
    }
  }
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  if (!response.ok) {
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
    throw new Error(message);
  }
  return body as T;
}

/** The newest conversations of the console's organisation. */
export function listConversations(): Promise<ConsoleConversationList> {
  return call('GET', 'conversations');
}

/** Starts a `chat_realtime` conversation with the console agent; answers its token. */
export function createChat(): Promise<ConsoleOpened> {
  return call('POST', 'conversations');
}

/** A conversation's token (a new one when the console does not hold a valid one). */
export function openConversation(id: string): Promise<ConsoleOpened> {
  return call('POST', `conversations/${encodeURIComponent(id)}/open`);
}
