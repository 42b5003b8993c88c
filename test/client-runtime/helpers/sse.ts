/** Server side of SSE for the tests: message framing and resuming from `Last-Event-ID`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestEvent } from './events.js';

/** One SSE message as the service frames it: `id:` and one `data:` line. */
export function sseMessage(event: TestEvent): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The index of the first event after the request's `Last-Event-ID` (0 without one). */
export function resumeIndex(events: readonly TestEvent[], req: IncomingMessage): number {
  const last = req.headers['last-event-id'];
  if (typeof last !== 'string') return 0;
  const index = events.findIndex((event) => event.id === last);
  if (index < 0) throw new Error(`unknown Last-Event-ID ${last}`);
  return index + 1;
}

/** Starts an SSE answer with `retry:` and a heartbeat comment. */
export function openSse(res: ServerResponse, retryMs = 1): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`retry: ${retryMs}\n\n: heartbeat\n\n`);
}

/** Resolves when the request's connection closes (the client went away), or at once if it has already. */
export function closed(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.socket.destroyed) resolve();
    else req.socket.once('close', () => resolve());
  });
}
