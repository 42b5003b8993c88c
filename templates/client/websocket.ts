/**
 * The WebSocket session: typed, validated sends and events, resumed after drops with `last_event_id` (a dead
 * connection included, with `ws`), closed by the client after the conversation's last event.
 */
import { assertValid } from '../shared/errors.js';
import type { Validator } from '../shared/validation.js';
import { AsyncQueue } from './async-queue.js';
import {
  ApiConnectionError,
  ApiUserAbortError,
  CasiError,
  checkTextLength,
  DEFAULT_MAX_TEXT_LENGTH,
} from './errors.js';
import { EventLedger, envelopeId } from './event-ledger.js';
import { type EventReadingOptions, type ReadEvent, readEvent } from './event-reading.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget, type ReconnectOptions } from './reconnect.js';
import { sleep } from './retry.js';
import {
  loadWebSocket,
  OPEN,
  runSocket,
  type SocketOutcome,
  type WebSocketConstructor,
  type WebSocketImplementation,
  type WebSocketLike,
} from './socket.js';
import {
  authorizationHeader,
  type CallHeaders,
  mergeHeaders,
  resolveToken,
  type TokenProvider,
  type TransportOptions,
} from './transport.js';
import { toWebSocketUrl, withQuery } from './url.js';

/** The least an event must look like: an envelope whose `payload` has a `type`. */
export interface TypedEvent {
  payload: { type: string };
}

/** The member of the event union `E` whose `payload.type` is `T`. */
export type EventOfType<E extends TypedEvent, T extends E['payload']['type']> = Extract<E, { payload: { type: T } }>;

/** Options of `openSession`; `core.transport` fills the connection part. */
export interface SessionOptions<ServerE extends TypedEvent, ClientE extends TypedEvent>
  extends Omit<TransportOptions, 'fetch'>,
    ReconnectOptions,
    EventReadingOptions {
  /** The session's URL, `ws(s)://` or `http(s)://` (turned into `ws(s)://`). */
  url: string | URL;
  /** The ephemeral token, sent as `?token=`; a function is called on every (re)connect. */
  token?: TokenProvider | undefined;
  /** Resume after this event (`?last_event_id=`) instead of replaying the whole history. */
  lastEventId?: string | undefined;
  /**
   * Checks every incoming event as `strict` and `unknownEvents` say (see `EventReadingOptions`); an invalid one fails
   * the session with `ValidationError`.
   */
  serverValidator?: Validator<ServerE> | undefined;
  /** Checks every event before it is sent; an invalid one throws `ValidationError` and nothing is sent. */
  clientValidator?: Validator<ClientE> | undefined;
  /** Set false to skip both validators (default true). */
  validate?: boolean | undefined;
  /**
   * The last event of the conversation: iteration ends after it, the session closes its socket (the service keeps
   * it open) and `closed` resolves.
   */
  isTerminal?: ((event: ServerE) => boolean) | undefined;
  /**
   * With `ws` (Node): a connection that brings no frame and no ping for this long is dropped and resumed (default
   * 75000: the service pings every 30 s; 0 disables). Browsers do not show pings: there it is off.
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Events kept for a `for await` while nobody iterates (default 10000): past it the oldest are dropped, and the
   * next `for await` first throws a `CasiError` saying how many. `on()` handlers get every event regardless.
   */
  maxBufferedEvents?: number | undefined;
  /** Longest `payload.text` a client event may carry, in characters (default 4096). */
  maxTextLength?: number | undefined;
  /** The WebSocket implementation (default: `ws` in Node when installed, else `globalThis.WebSocket`). */
  WebSocket?: WebSocketConstructor | undefined;
  /** Closes the session when aborted. */
  signal?: AbortSignal | undefined;
}

/** What a caller of a generated `session(id, options)` method may set; the generator fills the rest. */
export type SessionCallOptions = Pick<
  SessionOptions<TypedEvent, TypedEvent>,
  | 'token'
  | 'apiKey'
  | 'lastEventId'
  | 'signal'
  | 'validate'
  | 'maxTextLength'
  | 'WebSocket'
  | 'idleTimeoutMs'
  | 'maxBufferedEvents'
  | keyof ReconnectOptions
  | keyof EventReadingOptions
> & {
  /** Headers of this connection, set over the client's (names compared without case); `null` removes one. */
  headers?: CallHeaders | undefined;
};

/** Default `idleTimeoutMs`: two missed pings of the service (every 30 s) and a margin. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 75_000;
/** Default `maxBufferedEvents`. */
export const DEFAULT_MAX_BUFFERED_EVENTS = 10_000;

/** Where a session stands. */
export type SessionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A live session: `send` client events, read server events with `on` or `for await`, `close` when done. */
export interface Session<ServerE extends TypedEvent, ClientE extends TypedEvent> extends AsyncIterable<ServerE> {
  /** Resolves when the first connection opens; rejects when the session fails or is closed before that. */
  readonly ready: Promise<void>;
  /**
   * Resolves when the session is closed by `close()`, or after the terminal event once the session has closed its
   * socket; rejects with the error that ended it.
   */
  readonly closed: Promise<void>;
  readonly state: SessionState;
  /** The id of the last event received (sent as `last_event_id` on reconnect). */
  readonly lastEventId: string | undefined;
  /**
   * Sends a client event (queued while (re)connecting). Throws `MessageTooLongError` or `ValidationError` first, and
   * a `CasiError` once the session is closed or the conversation has ended.
   */
  send(event: ClientE): void;
  /** Calls `handler` for each event of `type`, typed by that type; returns the function that unsubscribes. */
  on<T extends ServerE['payload']['type']>(type: T, handler: (event: EventOfType<ServerE, T>) => void): () => void;
  /** Closes the socket for good; iteration ends and `closed` resolves. */
  close(): void;
}

/**
 * Opens a session; connecting starts at once. Server events are buffered for `for await` from the start (up to
 * `maxBufferedEvents` while nobody iterates).
 */
export function openSession<ServerE extends TypedEvent, ClientE extends TypedEvent>(
  options: SessionOptions<ServerE, ClientE>,
): Session<ServerE, ClientE> {
  return new WebSocketSession(options);
}

class WebSocketSession<ServerE extends TypedEvent, ClientE extends TypedEvent> implements Session<ServerE, ClientE> {
  readonly ready: Promise<void>;
  readonly closed: Promise<void>;
  #state: SessionState = 'connecting';
  readonly #options: SessionOptions<ServerE, ClientE>;
  readonly #ledger: EventLedger;
  readonly #events: AsyncQueue<ServerE>;
  readonly #handlers = new Map<string, Set<(event: ServerE) => void>>();
  readonly #outbox: string[] = [];
  readonly #stop = new AbortController();
  #socket: WebSocketLike | undefined;
  #ended = false;
  #settleReady!: (error?: unknown) => void;
  #settleClosed!: (error?: unknown) => void;

  constructor(options: SessionOptions<ServerE, ClientE>) {
    this.#options = options;
    this.#ledger = new EventLedger(options.lastEventId);
    const limit = options.maxBufferedEvents ?? DEFAULT_MAX_BUFFERED_EVENTS;
    this.#events = new AsyncQueue<ServerE>(
      limit,
      (dropped) =>
        new CasiError(
          `${dropped} events were dropped: more than ${limit} (maxBufferedEvents) waited while nobody iterated the ` +
            'session. Iterate from the start, or raise maxBufferedEvents; on() handlers received them all.',
        ),
    );
    this.ready = settleable((settle) => {
      this.#settleReady = settle;
    });
    this.closed = settleable((settle) => {
      this.#settleClosed = settle;
    });
    if (options.signal?.aborted) this.close();
    else options.signal?.addEventListener('abort', () => this.close(), { once: true, signal: this.#stop.signal });
    if (this.#state !== 'closed') void this.#run();
  }

  get state(): SessionState {
    return this.#state;
  }

  get lastEventId(): string | undefined {
    return this.#ledger.lastEventId;
  }

  send(event: ClientE): void {
    if (this.#state === 'closed') throw new CasiError('The session is closed.');
    if (this.#ended) throw new CasiError('The conversation has ended: the session takes no more events.');
    checkTextLength(event, this.#options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH);
    const validator = this.#options.clientValidator;
    if (validator !== undefined && this.#options.validate !== false) assertValid(validator, event);
    this.#outbox.push(JSON.stringify(event));
    this.#flush();
  }

  on<T extends ServerE['payload']['type']>(type: T, handler: (event: EventOfType<ServerE, T>) => void): () => void {
    const handlers = this.#handlers.get(type) ?? new Set();
    this.#handlers.set(type, handlers);
    const listener = handler as (event: ServerE) => void;
    handlers.add(listener);
    return () => {
      handlers.delete(listener);
    };
  }

  close(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#stop.abort();
    this.#socket?.close(1000, 'client closed');
    this.#finish();
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerE> {
    return this.#events.reader();
  }

  /** Connects, waits for the socket to close, and reconnects until the end, `close()`, or a final error. */
  async #run(): Promise<void> {
    const budget = new ReconnectBudget(this.#options);
    try {
      const impl = await loadWebSocket(this.#options.WebSocket);
      for (;;) {
        const startedAt = Date.now();
        const delivered = this.#ledger.lastEventId;
        const outcome = await this.#connect(impl).catch(
          (error: unknown): SocketOutcome => ({ opened: false, code: 1006, reason: '', error }),
        );
        if (this.#state === 'closed') return;
        if (this.#ended) return this.#finish();
        const progressed = this.#ledger.lastEventId !== delivered || Date.now() - startedAt >= HEALTHY_CONNECTION_MS;
        if (progressed) budget.reset();
        const delay = budget.next(outcome.error ?? dropped(outcome));
        this.#state = 'reconnecting';
        await sleep(delay, this.#stop.signal);
      }
    } catch (error) {
      if (!(error instanceof ApiUserAbortError && this.#state === 'closed')) this.#fail(error);
    }
  }

  /** One connection, from the handshake to its close. */
  async #connect(impl: WebSocketImplementation): Promise<SocketOutcome> {
    const { url, headers } = await this.#handshake(impl);
    if (this.#state === 'closed') throw new ApiUserAbortError();
    return runSocket(
      impl,
      url,
      headers,
      {
        onOpen: () => {
          this.#state = 'open';
          this.#settleReady();
          this.#flush();
        },
        onText: (text) => this.#receive(text),
      },
      (socket) => {
        this.#socket = socket;
      },
      this.#options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    );
  }

  /** The URL (token, `last_event_id`, version when headers cannot be sent) and headers of the next handshake. */
  async #handshake(impl: WebSocketImplementation) {
    const { apiKey, headers, serviceVersion } = this.#options;
    const token = await resolveToken(this.#options.token);
    if (!impl.sendsHeaders && token === undefined && apiKey !== undefined) {
      throw new CasiError(
        'This WebSocket implementation cannot send the Authorization header: pass `token` (the conversation token), ' +
          'or in Node install `ws` (`npm install ws`).',
      );
    }
    const url = withQuery(toWebSocketUrl(this.#options.url), {
      token,
      last_event_id: this.#ledger.lastEventId,
      service_version: impl.sendsHeaders ? undefined : serviceVersion,
    });
    return { url, headers: mergeHeaders({}, headers, authorizationHeader(apiKey, token)) };
  }

  /**
   * Parses, reads (see event-reading.ts), de-duplicates and delivers one frame; a skipped event of an unknown type
   * still counts as delivered, so a resume starts after it.
   */
  #receive(text: string): void {
    if (this.#state === 'closed') return;
    let read: ReadEvent<ServerE>;
    try {
      const data: unknown = JSON.parse(text);
      const validator = this.#options.serverValidator;
      read =
        validator !== undefined && this.#options.validate !== false
          ? readEvent(validator, data, this.#options.strict)
          : { event: data as ServerE, known: true };
    } catch (error) {
      const reason = error instanceof SyntaxError ? new CasiError(`A frame is not JSON: ${text.slice(0, 200)}`) : error;
      this.#fail(reason);
      return;
    }
    const { event } = read;
    if (!this.#ledger.accept(envelopeId(event))) return;
    if (!read.known && this.#options.unknownEvents === 'skip') return;
    this.#events.push(event);
    const terminal = !this.#ended && this.#options.isTerminal?.(event) === true;
    if (terminal) {
      this.#ended = true;
      this.#events.end();
    }
    for (const handler of [...(this.#handlers.get(event.payload.type) ?? [])]) {
      try {
        handler(event);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
    // The service leaves the socket open after the end; closing it lets `#run` finish and `closed` resolve.
    if (terminal) this.#socket?.close(1000, 'conversation ended');
  }

  /** Sends the queued frames while the socket is open. */
  #flush(): void {
    const socket = this.#socket;
    while (socket?.readyState === OPEN && this.#state === 'open' && this.#outbox.length > 0) {
      socket.send(this.#outbox.shift() as string);
    }
  }

  #finish(): void {
    this.#state = 'closed';
    this.#events.end();
    this.#settleReady(new ApiUserAbortError('The session was closed before it opened.'));
    this.#settleClosed();
  }

  #fail(error: unknown): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#stop.abort();
    this.#socket?.close(1000, 'client failed');
    this.#events.fail(error);
    this.#settleReady(error);
    this.#settleClosed(error);
  }
}

/** The error for a socket that closed without a refusal or failure of its own. */
function dropped(outcome: SocketOutcome): ApiConnectionError {
  const reason = outcome.reason ? `: ${outcome.reason}` : '';
  const what = outcome.opened ? 'The session closed unexpectedly' : 'The session could not connect';
  return new ApiConnectionError(`${what} (code ${outcome.code}${reason}).`);
}

/** A promise settled once by `settle(error?)` (later calls do nothing); its rejection never goes unhandled. */
function settleable(expose: (settle: (error?: unknown) => void) => void): Promise<void> {
  const promise = new Promise<void>((resolve, reject) => {
    let settled = false;
    expose((error) => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve();
      else reject(error);
    });
  });
  promise.catch(() => {});
  return promise;
}
