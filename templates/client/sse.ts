/**
 * Server-Sent Events over fetch: a validated, resumable `AsyncIterable` of events. The reader (`sse-reader.ts`, with
 * eventsource-parser) and a lazily loaded validator are imported when iteration starts.
 */
import type { Validator } from '../shared/validation.js';
import { CasiError } from './errors.js';
import type { EventLedger } from './event-ledger.js';
import type { EventReadingOptions } from './event-reading.js';
import type { ReconnectOptions } from './reconnect.js';
import type { CallHeaders, TokenProvider, TransportOptions } from './transport.js';

/** Options of `streamEvents`; `core.transport` fills the connection part. */
export interface StreamEventsOptions<E> extends TransportOptions, ReconnectOptions, EventReadingOptions {
  /** The stream's absolute URL (`core.url('/conversations/{conversation_id}/events', …)`). */
  url: string | URL;
  /** The ephemeral token, sent as `?token=` instead of the API key; a function is called on every (re)connect. */
  token?: TokenProvider | undefined;
  /** Resume after this event (sent as `Last-Event-ID`); it is not delivered again. */
  lastEventId?: string | undefined;
  /** Stops the stream; iteration then throws `ApiUserAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Checks every event as `strict` and `unknownEvents` say (see `EventReadingOptions`); an invalid one throws
   * `ValidationError` naming the JSON pointer.
   */
  validator?: Validator<E> | undefined;
  /** Loads the validator when iteration starts, if `validator` is not given (a dynamic `import()`). */
  loadValidator?: (() => Promise<Validator<E>>) | undefined;
  /** Set false to skip the validator (default true when one is given); nothing is then loaded. */
  validate?: boolean | undefined;
  /** The last event of the stream: iteration ends right after it. */
  isTerminal?: ((event: E) => boolean) | undefined;
  /** A connection silent this long (heartbeats count) is dropped and resumed; default 60000, 0 disables. */
  idleTimeoutMs?: number | undefined;
}

/** What a caller of a generated `events(id, options)` method may set; the generator fills the rest. */
export type StreamCallOptions = Pick<
  StreamEventsOptions<unknown>,
  | 'token'
  | 'apiKey'
  | 'lastEventId'
  | 'signal'
  | 'validate'
  | 'idleTimeoutMs'
  | keyof ReconnectOptions
  | keyof EventReadingOptions
> & {
  /** Headers of this connection, set over the client's (names compared without case); `null` removes one. */
  headers?: CallHeaders | undefined;
};

/** Default silence after which a connection is considered dead (the service sends a heartbeat every 15 s). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** A live event stream: iterate it once with `for await`; `break` closes the connection. */
export class EventStream<E> implements AsyncIterable<E> {
  readonly #options: StreamEventsOptions<E>;
  /** Made with the reader, which brings its code: a page that never iterates a stream loads none of it. */
  #ledger: EventLedger | undefined;
  readonly #controller = new AbortController();
  #iterated = false;

  constructor(options: StreamEventsOptions<E>) {
    this.#options = options;
  }

  /** The id of the last event delivered: pass it as `lastEventId` to resume in another stream. */
  get lastEventId(): string | undefined {
    return this.#ledger === undefined ? this.#options.lastEventId : this.#ledger.lastEventId;
  }

  /** Closes the connection; a pending or later `next()` throws `ApiUserAbortError`. */
  close(): void {
    this.#controller.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    if (this.#iterated) throw new CasiError('An event stream can be iterated only once.');
    this.#iterated = true;
    let events: AsyncIterator<E> | undefined;
    let opening: Promise<AsyncIterator<E>> | undefined;
    const open = () => {
      opening ??= this.#open().then((opened) => {
        events = opened;
        return opened;
      });
      return opening;
    };
    return {
      next: () => (events ? events.next() : open().then((opened) => opened.next())),
      return: (value?: unknown) =>
        open().then((opened) => opened.return?.(value) ?? { value: undefined, done: true as const }),
    };
  }

  async #open(): Promise<AsyncIterator<E>> {
    const { validate, validator, loadValidator } = this.#options;
    const [{ readEvents, EventLedger }, loaded] = await Promise.all([
      import('./sse-reader.js'),
      validate === false || validator !== undefined ? validator : loadValidator?.(),
    ]);
    const idleTimeoutMs = this.#options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.#ledger = new EventLedger(this.#options.lastEventId);
    return readEvents({ ...this.#options, validator: loaded, idleTimeoutMs }, this.#ledger, this.#controller);
  }
}

/** Opens an SSE stream lazily: nothing is fetched until iteration starts. */
export function streamEvents<E>(options: StreamEventsOptions<E>): EventStream<E> {
  return new EventStream(options);
}
