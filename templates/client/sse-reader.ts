/**
 * The reading side of `EventStream`: connects, parses with eventsource-parser, validates, resumes after drops. The
 * connection itself is a transport (`SseConnect`): fetch here, `node:http` in `sse-node.ts`; both hand the same
 * text to the one parsing path below.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { assertValid, ValidationError } from '../shared/errors.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import { type EventLedger, envelopeId } from './event-ledger.js';
import { IdleTimer } from './idle-timer.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget } from './reconnect.js';
import { sleep } from './retry.js';
import type { StreamEventsOptions } from './sse.js';
import {
  authorizationHeader,
  defaultFetch,
  type FetchLike,
  fetchHolding,
  forwardAbort,
  resolveToken,
} from './transport.js';
import { withQuery } from './url.js';

/** The stream's ledger class, loaded with the reader (see `EventStream`). */
export { EventLedger } from './event-ledger.js';

/** One GET of the stream, as every transport sends it. */
export interface SseRequest {
  readonly url: URL;
  readonly headers: Headers;
}

/** The body of an open event stream, as text. */
export interface SseBody {
  /**
   * The text received since the previous call (UTF-8 decoded, a character split across chunks kept whole), or
   * `undefined` once the body has ended; rejects when the connection fails or is aborted.
   */
  read(): Promise<string | undefined>;
  /** Closes the connection (any time, more than once). */
  cancel(): void;
}

/**
 * A transport: sends `request` and resolves to the body, or to `undefined` on a 204. Its answer goes through
 * `acceptAnswer`, so a non-2xx status rejects with the `ApiError` family; `signal` aborts the connection.
 */
export type SseConnect = (request: SseRequest, signal: AbortSignal) => Promise<SseBody | undefined>;

/** What a transport knows of an answer before its body is read: what `acceptAnswer` checks. */
export interface SseAnswer {
  readonly status: number;
  readonly contentType: string | null;
  /** The answer's headers (only read for an error). */
  headers(): Headers;
  /** The whole body as text (only read for an error). */
  text(): Promise<string>;
  /** Drops the body unread. */
  discard(): Promise<void>;
}

const STREAM = { stream: true } as const;

/**
 * The events of a stream, connection after connection: each delivered once (by `ledger`), until the terminal event,
 * a 204, an error that is not retried, or an abort of `stream`. `idleTimeoutMs` is resolved by the caller;
 * `connect` is the transport (default: `options.fetch`, else `globalThis.fetch`).
 */
export async function* readEvents<E>(
  options: StreamEventsOptions<E> & { idleTimeoutMs: number },
  ledger: EventLedger,
  stream: AbortController,
  connect: SseConnect = fetchTransport(options.fetch ?? defaultFetch),
) {
  const unlink = forwardAbort(options.signal, stream);
  const budget = new ReconnectBudget(options);
  const { idleTimeoutMs, isTerminal } = options;
  const validator = options.validate === false ? undefined : options.validator;
  const pending: EventSourceMessage[] = [];
  const onEvent = (message: EventSourceMessage) => {
    pending.push(message);
  };
  const onRetry = (ms: number) => {
    budget.baseDelayMs = ms;
  };
  try {
    for (;;) {
      const connection = new AbortController();
      const unlinkConnection = forwardAbort(stream.signal, connection);
      const idle = new IdleTimer(idleTimeoutMs, () => connection.abort());
      const openedAt = Date.now();
      let body: SseBody | undefined;
      try {
        body = await connect(await streamRequest(options, ledger.lastEventId), connection.signal);
        if (body === undefined) return;
        const parser = createParser({ onEvent, onRetry });
        pending.length = 0;
        for (;;) {
          const text = await body.read();
          idle.touch();
          if (text === undefined) break;
          parser.feed(text);
          // The chunk's messages, in order: each parsed, validated and checked against the ledger before it is
          // yielded; a throw (invalid event) leaves the ones after it undelivered, as the stream then ends.
          for (let i = 0; i < pending.length; i++) {
            const message = pending[i] as EventSourceMessage;
            const event = parseEvent<E>(message, validator);
            if (!ledger.accept(message.id ?? envelopeId(event))) continue;
            budget.reset();
            yield event;
            if (isTerminal?.(event)) return;
          }
          pending.length = 0;
        }
        throw new ApiConnectionError('The event stream ended before its last event.');
      } catch (error) {
        if (stream.signal.aborted) throw new ApiUserAbortError();
        const cause = idle.fired ? new ApiTimeoutError(`No data for ${idleTimeoutMs} ms.`) : asStreamError(error);
        if (Date.now() - openedAt >= HEALTHY_CONNECTION_MS) budget.reset();
        await sleep(budget.next(cause), stream.signal);
      } finally {
        body?.cancel();
        idle.stop();
        connection.abort();
        unlinkConnection();
      }
    }
  } finally {
    unlink();
  }
}

/** The GET of one connection: headers, the token as `?token=`, `Last-Event-ID` when resuming. */
async function streamRequest<E>(options: StreamEventsOptions<E>, lastEventId: string | undefined) {
  const token = await resolveToken(options.token);
  const headers = new Headers({ ...options.headers, ...authorizationHeader(options.apiKey, token) });
  headers.set('Accept', 'text/event-stream');
  if (lastEventId !== undefined) headers.set('Last-Event-ID', lastEventId);
  return { url: withQuery(options.url, { token }), headers };
}

/**
 * Checks an answer before its body is read: false for a 204 (the stream is over), the `ApiError` family for a
 * non-2xx status (with the parsed error body), `CasiError` for a 2xx that is not `text/event-stream`; else true.
 */
export async function acceptAnswer(answer: SseAnswer): Promise<boolean> {
  if (answer.status === 204) return false;
  if (answer.status < 200 || answer.status > 299) {
    throw errorFromResponse(answer.status, parseErrorBody(await answer.text()), answer.headers());
  }
  const type = answer.contentType ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) {
    await answer.discard();
    throw new CasiError(`Expected a text/event-stream answer, got ${type || 'no content type'}.`);
  }
  return true;
}

function parseErrorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The fetch transport: one `Request` per connection, the body read with its reader and a `TextDecoder`. */
export function fetchTransport(fetch: FetchLike): SseConnect {
  return async (request, signal) => {
    const response = await fetchHolding(fetch, new Request(request.url, { headers: request.headers, signal }));
    const accepted = await acceptAnswer({
      status: response.status,
      contentType: response.headers.get('content-type'),
      headers: () => response.headers,
      text: () => response.text(),
      discard: async () => {
        await response.body?.cancel();
      },
    });
    if (!accepted) return undefined;
    if (response.body === null) throw new ApiConnectionError('The event stream has no body.');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    // A read pending when the connection aborts rejects with the abort itself: Node's fetch can leave such a read
    // pending for ever (nodejs/node#56917), which would stall the stream instead of reconnecting it.
    let failRead: ((reason: unknown) => void) | undefined;
    signal.addEventListener('abort', () => failRead?.(signal.reason), { once: true });
    return {
      read: () =>
        new Promise<string | undefined>((resolve, reject) => {
          if (signal.aborted) return reject(signal.reason);
          failRead = reject;
          reader.read().then(({ done, value }) => resolve(done ? undefined : decoder.decode(value, STREAM)), reject);
        }),
      cancel: () => {
        reader.cancel().catch(() => {});
      },
    };
  };
}

/** The JSON of one message, validated when a validator is given. */
function parseEvent<E>(message: EventSourceMessage, validator: StreamEventsOptions<E>['validator']): E {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (error) {
    throw new CasiError(`Event ${message.id ?? '(no id)'} is not JSON: ${message.data.slice(0, 200)}`, {
      cause: error,
    });
  }
  return validator === undefined ? (data as E) : assertValid(validator, data);
}

/** Network failures become `ApiConnectionError`; our own errors pass through. */
function asStreamError(error: unknown): unknown {
  if (error instanceof CasiError || error instanceof ValidationError) return error;
  return new ApiConnectionError('The event stream connection failed.', { cause: error });
}
