/** The console page's calls to its server routes (`/console/api/…`): same origin, no credentials of any kind. */
import type { ConsoleConversationList, ConsoleOpened } from '../types.js';

async function call<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  const response = await fetch(`/console/api/${path}`, { method, headers: { accept: 'application/json' } });
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
