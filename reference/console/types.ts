/** What the console's server routes answer and the page reads: only what the page needs, never the API key. */

/** One conversation as the console lists it. */
export interface ConsoleConversation {
  readonly id: string;
  readonly status: string;
  /** `chat_realtime`, `chat_async`, `phone`, or null when unknown. */
  readonly channel_type: string | null;
  readonly created_at: string;
  /** The console created it (so it holds its token); opening another one issues a new token. */
  readonly own: boolean;
}

/** `GET /console/api/conversations`: the newest conversations of the console's organisation. */
export interface ConsoleConversationList {
  readonly data: readonly ConsoleConversation[];
  /** The organisation the console acts for (the first of `CASI_API_KEYS`). */
  readonly org: string;
}

/** A conversation the page may open: its ephemeral token, for its event stream and session only. */
export interface ConsoleOpened extends ConsoleConversation {
  readonly token: string;
}
