/**
 * One bounded read of a stream channel: Server-Sent Events or JSON lines, until it ends, goes quiet, has given
 * enough messages or runs out of time; the connection is then cut (a forced disconnect when it was still open).
 */
import { createParser } from 'eventsource-parser';
import { parseJson } from '../wire.js';
import type { ChannelTarget } from './channels.js';

/** One message read: its JSON value, its text, and its SSE `id:` when it has one. */
export interface StreamMessage {
  readonly value: unknown;
  readonly text: string;
  readonly id?: string;
}

/** What a read gave: the messages, the texts that were not JSON, a framing problem, or why nothing came. */
export interface StreamRead {
  readonly messages: readonly StreamMessage[];
  readonly malformed: readonly string[];
  readonly framing?: string;
  readonly error?: string;
}

/** How to read: SSE or JSON lines, from which id, and when to stop. */
export interface ReadOptions {
  readonly sse: boolean;
  readonly lastEventId?: string | undefined;
  readonly stopAfter: number;
  readonly quietMs: number;
  readonly maxMs: number;
}

/** Reads `target` once as `options` say. */
export async function readStream(target: ChannelTarget, options: ReadOptions): Promise<StreamRead> {
  const messages: StreamMessage[] = [];
  const malformed: string[] = [];
  const abort = new AbortController();
  const headers: Record<string, string> = { ...target.headers };
  if (options.sse) headers.Accept = 'text/event-stream';
  if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
  const take = (text: string, id?: string) => {
    const value = parseJson(text);
    if (value === undefined) malformed.push(text);
    else messages.push({ value, text, ...(id === undefined || id === '' ? {} : { id }) });
  };
  const parser = createParser({ onEvent: (event) => take(event.data, event.id) });
  let response: Response;
  try {
    response = await fetch(target.url, { method: target.method, headers, signal: abort.signal });
  } catch (error) {
    return { messages, malformed, error: `no answer: ${(error as Error).message}` };
  }
  if (response.status !== 200 || response.body === null) {
    const text = await response.text().catch(() => '');
    return { messages, malformed, error: `the stream answered ${response.status}: ${text.slice(0, 200)}` };
  }
  const contentType = response.headers.get('content-type') ?? '';
  const framing =
    options.sse && !/^text\/event-stream/i.test(contentType)
      ? `content type ${contentType || '(none)'}, declared text/event-stream`
      : undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  const started = Date.now();
  try {
    while (messages.length + malformed.length < options.stopAfter) {
      const left = Math.min(options.quietMs, options.maxMs - (Date.now() - started));
      if (left <= 0) break;
      const chunk = await Promise.race([reader.read(), delay(left)]);
      if (chunk === undefined || chunk.done) break;
      const text = decoder.decode(chunk.value, { stream: true });
      if (options.sse) parser.feed(text);
      else {
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') take(line);
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) return { messages, malformed, error: `the stream broke: ${(error as Error).message}` };
  } finally {
    abort.abort();
    await reader.cancel().catch(() => undefined);
  }
  return { messages: messages.slice(0, options.stopAfter), malformed, ...(framing ? { framing } : {}) };
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
