/** A Server-Sent Events stream over a hijacked Fastify reply: framing, heartbeats, backpressure, disconnects. */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { isFrozenObject } from './frozen.js';
import { formatComment, formatMessage, formatRetry, type SseMessage } from './sse-format.js';

/** Options of `SseStream.open`. */
export interface SseOpenOptions {
  /** Sent first as `retry: <ms>`: the client's reconnection delay. */
  readonly retry?: number;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The stream an `sse` handler writes to. It opens (status 200 and headers) at `open()` or the first write. */
export interface SseStream {
  /** True once the status line and headers are sent. */
  readonly opened: boolean;
  /** True after `close()` or once the client has gone. */
  readonly closed: boolean;
  /** Bytes written but not yet handed to the operating system. */
  readonly bufferedBytes: number;
  /** Sends the status and headers now (and `retry:` when given); later calls do nothing. */
  open(options?: SseOpenOptions): void;
  /** Writes one message; resolves once the buffer has room again, to true, or to false if the stream is closed. */
  send(message: SseMessage): Promise<boolean>;
  /**
   * `send` with `data` as JSON (checked against the route's event schema when responses are validated). A frozen
   * `data` object is taken as immutable, deeply: its message is formatted once and reused by every stream.
   */
  sendJson(data: unknown, fields?: Omit<SseMessage, 'data'>): Promise<boolean>;
  /**
   * Formats a `sendJson` message and keeps it for the next write (`flush`, or any other write or `close`, which
   * send what is queued first): a subscriber that lags sends its pending messages in one write.
   */
  queueJson(data: unknown, fields?: Omit<SseMessage, 'data'>): void;
  /** Characters queued by `queueJson` and not yet written. */
  readonly queuedLength: number;
  /** Writes what is queued; resolves like `send` (to true at once when nothing is queued and the stream is open). */
  flush(): Promise<boolean>;
  /** Writes a `: text` comment. */
  comment(text: string): Promise<boolean>;
  /** Ends the stream (opening it first if needed). */
  close(): void;
  /** Calls `listener` once, when the stream closes for any reason (at once if it already has). */
  onClose(listener: () => void): void;
}

/** What `createSseStream` needs from the runtime. */
export interface SseStreamConfig {
  /** Milliseconds of silence before a `: heartbeat` comment. */
  readonly heartbeatMs: number;
  /** Called with each JSON value before it is sent; may throw to refuse it. */
  readonly checkEvent?: (data: unknown) => void;
  /** A `HEAD` request: the stream ends as soon as its status and headers are sent. */
  readonly headersOnly?: boolean;
}

/** The headers of every event stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** Creates the stream for one request; nothing is sent until it opens. */
export function createSseStream(reply: FastifyReply, config: SseStreamConfig): SseStream {
  return new ReplySseStream(reply, config);
}

/** Messages of frozen JSON values by value, so that a value sent on many streams is serialised once. */
const frames = new WeakMap<object, { readonly id?: string; readonly event?: string; readonly text: string }>();

/** The message `sendJson` writes: from the cache for a frozen object (same id and event), else formatted now. */
function jsonMessage(data: unknown, fields: Omit<SseMessage, 'data'>): string {
  const frozen = isFrozenObject(data);
  const cached = frozen ? frames.get(data) : undefined;
  if (cached !== undefined && cached.id === fields.id && cached.event === fields.event) return cached.text;
  // Not `jsonOf`: the frame below is what is kept, once, for a frozen value.
  const json = JSON.stringify(data) as string | undefined;
  if (json === undefined) throw new TypeError('SSE data must be JSON-serialisable');
  const text = formatMessage({ id: fields.id, event: fields.event, data: json });
  if (frozen) frames.set(data, { id: fields.id, event: fields.event, text });
  return text;
}

class ReplySseStream implements SseStream {
  opened = false;
  closed = false;
  queuedLength = 0;
  private queued = '';
  private readonly raw: ServerResponse;
  private readonly listeners: (() => void)[] = [];
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly reply: FastifyReply,
    private readonly config: SseStreamConfig,
  ) {
    this.raw = reply.raw;
    this.raw.once('close', () => this.markClosed());
  }

  get bufferedBytes(): number {
    return this.raw.writableLength;
  }

  open(options: SseOpenOptions = {}): void {
    if (this.opened || this.closed) return;
    this.opened = true;
    this.reply.hijack();
    this.raw.writeHead(200, { ...options.headers, ...SSE_HEADERS });
    if (this.config.headersOnly === true) {
      this.raw.end();
      this.markClosed();
      return;
    }
    if (options.retry !== undefined) this.raw.write(formatRetry(options.retry));
    else this.raw.flushHeaders();
    this.heartbeat = setTimeout(() => this.beat(), this.config.heartbeatMs);
    this.heartbeat.unref();
  }

  send(message: SseMessage): Promise<boolean> {
    return this.write(formatMessage(message));
  }

  sendJson(data: unknown, fields: Omit<SseMessage, 'data'> = {}): Promise<boolean> {
    this.config.checkEvent?.(data);
    return this.write(jsonMessage(data, fields));
  }

  queueJson(data: unknown, fields: Omit<SseMessage, 'data'> = {}): void {
    this.config.checkEvent?.(data);
    const text = jsonMessage(data, fields);
    this.queued += text;
    this.queuedLength += text.length;
  }

  flush(): Promise<boolean> {
    return this.queued === '' ? Promise.resolve(!this.closed) : this.write('');
  }

  comment(text: string): Promise<boolean> {
    return this.write(formatComment(text));
  }

  close(): void {
    if (this.closed) return;
    this.open();
    this.raw.end(this.takeQueued());
    this.markClosed();
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.listeners.push(listener);
  }

  /** Writes what is queued, then `text`, in one write. */
  private write(text: string): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.open();
    const all = this.takeQueued() + text;
    const flushed = this.raw.write(all);
    this.heartbeat?.refresh();
    return flushed ? Promise.resolve(true) : this.drained();
  }

  private takeQueued(): string {
    const text = this.queued;
    this.queued = '';
    this.queuedLength = 0;
    return text;
  }

  private drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const done = () => {
        this.raw.off('drain', done);
        this.raw.off('close', done);
        resolve(!this.closed);
      };
      this.raw.on('drain', done);
      this.raw.on('close', done);
    });
  }

  private beat(): void {
    if (this.closed) return;
    if (this.bufferedBytes > 0) this.heartbeat?.refresh();
    else void this.comment('heartbeat');
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.heartbeat);
    for (const listener of this.listeners.splice(0)) listener();
  }
}
