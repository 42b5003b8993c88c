/**
 * A typed WebSocket connection to one AsyncAPI channel: `send` validates before sending; received messages are
 * validated tolerantly (a member this client does not know is ignored) and delivered by `for await`, `onMessage` and
 * `on(key)`, where the key is the value of the channel's discriminating member (or the message name). With
 * `reconnect`, a connection the server drops is opened again, the same iterator and listeners going on.
 */
import type { ChannelDescriptor, MessageSet } from '../shared/channel.js';
import { classify, parseFrame } from '../shared/channel.js';
import { ValidationError } from '../shared/errors.js';
import { AsyncQueue } from './async-queue.js';
import { tolerant } from './channel-reading.js';
import { channelRequest } from './channel-url.js';
import { ApiConnectionError, CasiError } from './errors.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget, type ReconnectOptions } from './reconnect.js';
import { sleep } from './retry.js';
import type { Credentials } from './security.js';
import {
  loadWebSocket,
  OPEN,
  runSocket,
  type SocketOutcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './socket.js';

/**
 * Options of a channel's `connect`. The credential (`apiKey`, or `username` and `password`) goes where the channel's
 * security scheme says: a query member, a cookie or a header. A browser's WebSocket sends no headers: a channel
 * whose credential goes in a header refuses to connect there (a server may take it by cookie or query instead).
 */
export interface ChannelOptions<Params, Query> extends Credentials {
  /** Where the channel's address is appended: `ws(s)://` or `http(s)://` (default: the document's server). */
  baseUrl?: string;
  /** The address parameters. */
  params: Params;
  /** The `ws` binding's query. */
  query?: Query;
  /** Handshake headers (sent where the WebSocket implementation can: `ws` in Node). */
  headers?: Record<string, string>;
  /** Checks received messages exactly, unknown members included (default false). */
  strict?: boolean;
  /** The WebSocket implementation (default: `ws` in Node, else the global one). */
  WebSocket?: WebSocketConstructor;
  /**
   * Opens the socket again when the server drops it (a failure, or a close with 1001, 1006, 1011, 1012 or 1013),
   * with backoff; `true` for the defaults. Messages sent while it is down throw. Default: no reconnect.
   */
  reconnect?: boolean | ReconnectOptions;
  /** Called each time the socket has opened again (to subscribe again, for example). */
  onReconnect?: () => void;
}

/** How a connection ended. */
export interface ChannelClosed {
  readonly code: number;
  readonly reason: string;
  readonly error: unknown;
}

/** An open channel: `In` is what the client receives, `Out` what it sends, `ByKey` `In` narrowed by key. */
export interface ChannelConnection<In, Out, ByKey> extends AsyncIterable<In> {
  /** Validates `message` (throws `ValidationError`) and sends it as one JSON text frame. */
  send(message: Out): void;
  /** Calls `listener` with each received message of `key`; returns a function that stops it. */
  on<K extends keyof ByKey & string>(key: K, listener: (message: ByKey[K]) => void): () => void;
  /** Calls `listener` with each received message and its key. */
  onMessage(listener: (message: In, key: string) => void): () => void;
  /** Calls `listener` with each received frame that is not a valid message (it is not delivered). */
  onInvalid(listener: (error: ValidationError, data: unknown) => void): () => void;
  close(code?: number, reason?: string): void;
  /** Settles when the socket has closed. */
  readonly closed: Promise<ChannelClosed>;
}

/** Received messages kept while nothing iterates. */
const BUFFERED_MESSAGES = 1000;

/** Opens the channel; resolves once the socket is open, rejects with the handshake's refusal or failure. */
export async function openChannel<In, Out, ByKey, Params extends object, Query extends object>(
  channel: ChannelDescriptor,
  options: ChannelOptions<Params, Query>,
): Promise<ChannelConnection<In, Out, ByKey>> {
  const { url, headers, credentialHeaders } = channelRequest(channel, options);
  url.protocol = url.protocol.replace(/^http/, 'ws');
  const impl = await loadWebSocket(options.WebSocket);
  if (!impl.sendsHeaders && credentialHeaders.length > 0)
    throw new CasiError(
      `The channel ${channel.name} takes its credential in the ${credentialHeaders.join(', ')} header, which this WebSocket cannot send: use the ws package, or a credential the server takes by query or cookie.`,
    );
  const messages = new Listeners<[In, string]>();
  const invalid = new Listeners<[ValidationError, unknown]>();
  const queue = new AsyncQueue<In>(
    BUFFERED_MESSAGES,
    (n) => new CasiError(`${n} messages were dropped: nothing read them.`),
  );
  const accepts = tolerant(options.strict === true);
  let frames = 0;
  const receive = (text: string): void => {
    frames++;
    let data: unknown;
    try {
      data = parseFrame(channel.name, text);
      const { key } = classify(channel.name, channel.receive, data, accepts);
      queue.push(data as In);
      messages.emit([data as In, key]);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      invalid.emit([error, data]);
    }
  };
  let socket: WebSocketLike | undefined;
  let closing = false;
  const connect = (onOpen: () => void) =>
    runSocket(impl, url, headers, { onOpen, onText: receive }, (created) => {
      socket = created;
    });
  let opened = (): void => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const first = connect(() => opened());
  const ended = await Promise.race([open.then(() => undefined), first]);
  if (ended !== undefined)
    throw ended.error ?? new ApiConnectionError(`The channel ${channel.name} closed before it opened (${ended.code}).`);
  const closed = reconnecting(first, options, { connect, closing: () => closing, frames: () => frames }).then(
    (outcome) => {
      if (outcome.error !== undefined) queue.fail(outcome.error);
      else queue.end();
      return { code: outcome.code, reason: outcome.reason, error: outcome.error };
    },
  );
  return {
    send(message) {
      // Throws `ValidationError` unless one of the messages the client sends takes it.
      classify(channel.name, channel.send, message, (v, value) => v(value));
      if (socket?.readyState !== OPEN) throw new CasiError(`The channel ${channel.name} is not open.`);
      socket.send(JSON.stringify(message));
    },
    on: (key, listener) =>
      messages.add(([message, got]) => {
        if (got === key) listener(message as never);
      }),
    onMessage: (listener) => messages.add(([message, key]) => listener(message, key)),
    onInvalid: (listener) => invalid.add(([error, data]) => listener(error, data)),
    close: (code = 1000, reason = '') => {
      closing = true;
      socket?.close(code, reason);
    },
    closed,
    [Symbol.asyncIterator]: () => queue.reader(),
  };
}

/** Close codes of a server that went away or failed, after which a new connection may succeed. */
const RECONNECT_CODES = new Set([1001, 1006, 1011, 1012, 1013]);

/** What `reconnecting` needs of a channel: opening its socket, whether the client closed it, frames received. */
interface Reconnectable {
  connect(onOpen: () => void): Promise<SocketOutcome>;
  closing(): boolean;
  frames(): number;
}

/**
 * Waits for the socket's last close: while `options.reconnect` allows and the client did not close it, a socket
 * dropped by the server is opened again after the budget's backoff. A connection that received a frame, or stayed
 * up `HEALTHY_CONNECTION_MS`, starts the count of failures again.
 */
async function reconnecting(
  first: Promise<SocketOutcome>,
  options: Pick<ChannelOptions<object, object>, 'reconnect' | 'onReconnect'>,
  channel: Reconnectable,
): Promise<SocketOutcome> {
  let outcome = await first;
  if (options.reconnect === undefined || options.reconnect === false) return outcome;
  const budget = new ReconnectBudget(options.reconnect === true ? {} : options.reconnect);
  let openedAt = 0;
  const reopened = () => {
    openedAt = Date.now();
    options.onReconnect?.();
  };
  let frames = channel.frames();
  while (!channel.closing() && (outcome.error !== undefined || RECONNECT_CODES.has(outcome.code))) {
    if (channel.frames() > frames || (openedAt > 0 && Date.now() - openedAt >= HEALTHY_CONNECTION_MS)) budget.reset();
    frames = channel.frames();
    openedAt = 0;
    const error = outcome.error ?? new ApiConnectionError(`The socket closed with ${outcome.code} ${outcome.reason}`);
    try {
      await sleep(budget.next(error));
    } catch {
      return outcome;
    }
    if (channel.closing()) return outcome;
    outcome = await channel.connect(reopened);
  }
  return outcome;
}

/** Values kept while no listener exists: the socket may deliver them before the caller adds one. */
const HELD_VALUES = 1000;

/**
 * Listeners of one kind. Values emitted while there are none are held (at most `HELD_VALUES`, the oldest dropped)
 * and given to every listener added in the same turn as the first one.
 */
class Listeners<V> {
  readonly #listeners = new Set<(value: V) => void>();
  #held: V[] = [];
  #releasing = false;

  emit(value: V): void {
    if (this.#listeners.size === 0) {
      this.#held.push(value);
      if (this.#held.length > HELD_VALUES) this.#held.shift();
    }
    for (const listener of this.#listeners) listener(value);
  }

  /** Adds `listener`, giving it the held values; returns a function that removes it. */
  add(listener: (value: V) => void): () => void {
    this.#listeners.add(listener);
    for (const value of this.#held) if (this.#listeners.has(listener)) listener(value);
    if (this.#held.length > 0 && !this.#releasing) {
      this.#releasing = true;
      queueMicrotask(() => {
        this.#held = [];
        this.#releasing = false;
      });
    }
    return () => this.#listeners.delete(listener);
  }
}

export type { ChannelDescriptor, MessageSet };
