/**
 * Bare clients of the event stream (SSE over `fetch`) and the session (`ws`), with no reconnection and no
 * deduplication: what a server sends is what they record, so a test sees every loss or duplicate.
 */
import WebSocket from 'ws';
import type { ServerEvent } from '../../generated/src/types.gen.js';

/** Where a client connects: a server's address and a credential. */
export interface Target {
  readonly baseUrl: string;
  readonly conversationId: string;
  /** A conversation token (`?token=`). */
  readonly token: string;
}

/** An SSE subscriber: the events it got, and `done` once the response ended or broke. */
export class SseReader {
  readonly events: ServerEvent[] = [];
  /** The HTTP status of the answer. */
  status = 0;
  /** Resolves when the stream ended (`conversation.ended`, a token ended, the server went away). */
  readonly done: Promise<void>;
  private readonly controller = new AbortController();

  constructor(target: Target, lastEventId?: string) {
    this.done = this.read(target, lastEventId).catch(() => undefined);
  }

  /** The id of the last event received (where to resume). */
  get lastId(): string | undefined {
    return this.events.at(-1)?.id;
  }

  close(): void {
    this.controller.abort();
  }

  private async read(target: Target, lastEventId: string | undefined): Promise<void> {
    const url = `${target.baseUrl}/conversations/${target.conversationId}/events?token=${target.token}`;
    const response = await fetch(url, {
      headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
      signal: this.controller.signal,
    });
    this.status = response.status;
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body.getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data !== '') this.events.push(JSON.parse(data) as ServerEvent);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  }
}

/** A WebSocket session: the events it got, `send`, and `closed` with the close code. */
export class RawSession {
  readonly events: ServerEvent[] = [];
  readonly socket: WebSocket;
  /** Resolves once the socket is open (rejects if it cannot open). */
  readonly open: Promise<void>;
  /** Resolves with the close code once the socket closed (1006: the server went away). */
  readonly closed: Promise<number>;
  private waiters: { test: (event: ServerEvent) => boolean; resolve: () => void }[] = [];

  constructor(target: Target, lastEventId?: string) {
    const base = target.baseUrl.replace(/^http/, 'ws');
    const resume = lastEventId === undefined ? '' : `&last_event_id=${lastEventId}`;
    this.socket = new WebSocket(
      `${base}/conversations/${target.conversationId}/session?token=${target.token}${resume}`,
    );
    this.open = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.socket.once('close', (code) => resolve(code)));
    this.socket.on('error', () => undefined);
    this.socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as ServerEvent;
      this.events.push(event);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(event)) return true;
        waiter.resolve();
        return false;
      });
    });
  }

  get lastId(): string | undefined {
    return this.events.at(-1)?.id;
  }

  send(payload: Record<string, unknown>): void {
    this.socket.send(JSON.stringify({ payload }));
  }

  /** Resolves at the next event of `type` (or once the socket closed: the caller checks what it got). */
  next(type: ServerEvent['payload']['type']): Promise<void> {
    return Promise.race([
      new Promise<void>((resolve) => this.waiters.push({ test: (event) => event.payload.type === type, resolve })),
      this.closed.then(() => undefined),
    ]);
  }

  close(): void {
    this.socket.close();
  }
}
