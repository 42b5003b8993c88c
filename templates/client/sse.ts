/** Server-Sent Events: a validated, resumable `AsyncIterable` of events over fetch, parsed by eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { assertValid, ValidationError, type Validator } from '../shared/validation.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import { EventLedger, envelopeId } from './event-ledger.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget, type ReconnectOptions } from './reconnect.js';
import { sleep } from './retry.js';
import { forwardAbort } from './signals.js';
import {
  authorizationHeader,
  defaultFetch,
  resolveToken,
  type TokenProvider,
  type TransportOptions,
} from './transport.js';
import { withQuery } from './url.js';

/** Options of `streamEvents`; `core.transport` fills the connection part. */
export interface StreamEventsOptions<E> extends TransportOptions, ReconnectOptions {
  /** The stream's absolute URL (`core.url('/conversations/{conversation_id}/events', …)`). */
  url: string | URL;
  /** The ephemeral token, sent as `?token=` instead of the API key; a function is called on every (re)connect. */
  token?: TokenProvider | undefined;
  /** Resume after this event (sent as `Last-Event-ID`); it is not delivered again. */
  lastEventId?: string | undefined;
  /** Stops the stream; iteration then throws `ApiUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Checks every event; an invalid one throws `ValidationError` naming the JSON pointer. */
  validator?: Validator<E> | undefined;
  /** Set false to skip the validator (default true when one is given). */
  validate?: boolean | undefined;
  /** The last event of the stream: iteration ends right after it. */
  isTerminal?: ((event: E) => boolean) | undefined;
  /** A connection silent this long (heartbeats count) is dropped and resumed; default 60000, 0 disables. */
  idleTimeoutMs?: number | undefined;
}

/** What a caller of a generated `events(id, options)` method may set; the generator fills the rest. */
export type StreamCallOptions = Pick<
  StreamEventsOptions<unknown>,
  'token' | 'lastEventId' | 'signal' | 'validate' | 'idleTimeoutMs' | keyof ReconnectOptions
>;

/** Default silence after which a connection is considered dead (the service sends a heartbeat every 15 s). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** A live event stream: iterate it once with `for await`; `break` closes the connection. */
export class EventStream<E> implements AsyncIterable<E> {
  readonly #options: StreamEventsOptions<E>;
  readonly #ledger: EventLedger;
  readonly #controller = new AbortController();
  #iterated = false;

  constructor(options: StreamEventsOptions<E>) {
    this.#options = options;
    this.#ledger = new EventLedger(options.lastEventId);
  }

  /** The id of the last event delivered: pass it as `lastEventId` to resume in another stream. */
  get lastEventId(): string | undefined {
    return this.#ledger.lastEventId;
  }

  /** Closes the connection; a pending or later `next()` throws `ApiUserAbortError`. */
  close(): void {
    this.#controller.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    if (this.#iterated) throw new CasiError('An event stream can be iterated only once.');
    this.#iterated = true;
    return run(this.#options, this.#ledger, this.#controller);
  }
}

/** Opens an SSE stream lazily: nothing is fetched until iteration starts. */
export function streamEvents<E>(options: StreamEventsOptions<E>): EventStream<E> {
  return new EventStream(options);
}

async function* run<E>(options: StreamEventsOptions<E>, ledger: EventLedger, stream: AbortController) {
  const unlink = forwardAbort(options.signal, stream);
  const budget = new ReconnectBudget(options);
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  try {
    for (;;) {
      const connection = new AbortController();
      const unlinkConnection = forwardAbort(stream.signal, connection);
      const idle = new IdleTimer(idleTimeoutMs, () => connection.abort());
      const openedAt = Date.now();
      try {
        const response = await connect(options, ledger.lastEventId, connection.signal);
        if (response.status === 204) return;
        const body = response.body;
        if (body === null) throw new ApiConnectionError('The event stream has no body.');
        const messages = readMessages(body, idle, (ms) => {
          budget.baseDelayMs = ms;
        });
        for await (const message of messages) {
          const event = parseEvent(message, options);
          if (!ledger.accept(message.id ?? envelopeId(event))) continue;
          budget.reset();
          yield event;
          if (options.isTerminal?.(event)) return;
        }
        throw new ApiConnectionError('The event stream ended before its last event.');
      } catch (error) {
        if (stream.signal.aborted) throw new ApiUserAbortError();
        const cause = idle.fired ? new ApiTimeoutError(`No data for ${idleTimeoutMs} ms.`) : asStreamError(error);
        if (Date.now() - openedAt >= HEALTHY_CONNECTION_MS) budget.reset();
        await sleep(budget.next(cause), stream.signal);
      } finally {
        idle.stop();
        connection.abort();
        unlinkConnection();
      }
    }
  } finally {
    unlink();
  }
}

/** One GET of the stream: headers, token, `Last-Event-ID`; a non-2xx answer throws the `ApiError` family. */
async function connect<E>(options: StreamEventsOptions<E>, lastEventId: string | undefined, signal: AbortSignal) {
  const token = await resolveToken(options.token);
  const headers = new Headers({ ...options.headers, ...authorizationHeader(options.apiKey, token) });
  headers.set('Accept', 'text/event-stream');
  if (lastEventId !== undefined) headers.set('Last-Event-ID', lastEventId);
  const url = withQuery(options.url, { token });
  const response = await (options.fetch ?? defaultFetch)(new Request(url, { headers, signal }));
  if (response.status === 204) return response;
  if (!response.ok) throw errorFromResponse(response.status, await readErrorBody(response), response.headers);
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) {
    await response.body?.cancel();
    throw new CasiError(`Expected a text/event-stream answer, got ${type || 'no content type'}.`);
  }
  return response;
}

async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The SSE messages of a body, decoded with TextDecoder and parsed with eventsource-parser only. */
async function* readMessages(
  body: ReadableStream<Uint8Array>,
  idle: IdleTimer,
  onRetry: (ms: number) => void,
): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message), onRetry });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      idle.restart();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      yield* pending.splice(0);
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The JSON of one message, validated when a validator is set. */
function parseEvent<E>(message: EventSourceMessage, options: StreamEventsOptions<E>): E {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (error) {
    throw new CasiError(`Event ${message.id ?? '(no id)'} is not JSON: ${message.data.slice(0, 200)}`, {
      cause: error,
    });
  }
  if (options.validator !== undefined && options.validate !== false) return assertValid(options.validator, data);
  return data as E;
}

/** Network failures become `ApiConnectionError`; our own errors pass through. */
function asStreamError(error: unknown): unknown {
  if (error instanceof CasiError || error instanceof ValidationError) return error;
  return new ApiConnectionError('The event stream connection failed.', { cause: error });
}

/** Fires once after `ms` without a `restart()`; 0 disables it. */
class IdleTimer {
  fired = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly ms: number,
    readonly onIdle: () => void,
  ) {
    this.restart();
  }
  restart(): void {
    this.stop();
    if (this.ms > 0) {
      this.#timer = setTimeout(() => {
        this.fired = true;
        this.onIdle();
      }, this.ms);
    }
  }
  stop(): void {
    clearTimeout(this.#timer);
  }
}
