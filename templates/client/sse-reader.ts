/**
 * The reading side of `EventStream`: connects with fetch, parses with eventsource-parser, validates, resumes after
 * drops.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ValidationError } from '../shared/errors.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import { type EventLedger, envelopeId } from './event-ledger.js';
import { type ReadEvent, readEvent } from './event-reading.js';
import { IdleTimer } from './idle-timer.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget } from './reconnect.js';
import { sleep } from './retry.js';
import type { StreamEventsOptions } from './sse.js';
import {
  authorizationHeader,
  defaultFetch,
  type FetchLike,
  forwardAbort,
  mergeHeaders,
  resolveToken,
} from './transport.js';
import { withQuery } from './url.js';

/** The stream's ledger class, loaded with the reader (see `EventStream`). */
export { EventLedger } from './event-ledger.js';

/** One GET of the stream. */
interface SseRequest {
  readonly url: URL;
  readonly headers: Headers;
}

/** The body of an open event stream, as text. */
interface SseBody {
  /**
   * The text received since the previous call (UTF-8 decoded, a character split across chunks kept whole), or
   * `undefined` once the body has ended; rejects when the connection fails or is aborted.
   */
  read(): Promise<string | undefined>;
  /** Closes the connection (any time, more than once). */
  cancel(): void;
}

const STREAM = { stream: true } as const;

/**
 * The events of a stream, connection after connection: each delivered once (by `ledger`), until the terminal event,
 * a 204, an error that is not retried, or an abort of `stream`. `idleTimeoutMs` is resolved by the caller.
 */
export async function* readEvents<E>(
  options: StreamEventsOptions<E> & { idleTimeoutMs: number },
  ledger: EventLedger,
  stream: AbortController,
) {
  const fetch = options.fetch ?? defaultFetch;
  const unlink = forwardAbort(options.signal, stream);
  const budget = new ReconnectBudget(options);
  const { idleTimeoutMs, isTerminal } = options;
  const validator = options.validate === false ? undefined : options.validator;
  const { strict, unknownEvents } = options;
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
        body = await connect(fetch, await streamRequest(options, ledger.lastEventId), connection.signal);
        if (body === undefined) return;
        const parser = createParser({ onEvent, onRetry });
        pending.length = 0;
        for (;;) {
          const text = await body.read();
          idle.touch();
          if (text === undefined) break;
          parser.feed(text);
          // The chunk's messages, in order: each parsed, read (see event-reading.ts) and checked against the ledger
          // before it is yielded; a throw (invalid event) leaves the ones after it undelivered, as the stream then
          // ends. A skipped event of an unknown type still counts as delivered, so a resume starts after it.
          for (let i = 0; i < pending.length; i++) {
            const message = pending[i] as EventSourceMessage;
            const { event, known } = parseEvent<E>(message, validator, strict);
            if (!ledger.accept(message.id ?? envelopeId(event))) continue;
            budget.reset();
            if (!known && unknownEvents === 'skip') continue;
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
async function streamRequest<E>(options: StreamEventsOptions<E>, lastEventId: string | undefined): Promise<SseRequest> {
  const token = await resolveToken(options.token);
  const headers = new Headers(mergeHeaders({}, options.headers, authorizationHeader(options.apiKey, token)));
  headers.set('Accept', 'text/event-stream');
  if (lastEventId !== undefined) headers.set('Last-Event-ID', lastEventId);
  return { url: withQuery(options.url, { token }), headers };
}

/**
 * Checks an answer before its body is read: false for a 204 (the stream is over), the `ApiError` family for a
 * non-2xx status (with the parsed error body), `CasiError` for a 2xx that is not `text/event-stream`; else true.
 */
async function acceptAnswer(response: Response): Promise<boolean> {
  if (response.status === 204) return false;
  if (response.status < 200 || response.status > 299) {
    throw errorFromResponse(response.status, parseErrorBody(await response.text()), response.headers);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) {
    await response.body?.cancel();
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

/**
 * One connection: sends `request` with `fetch` and resolves to its body, read with its reader and a `TextDecoder`,
 * or to `undefined` on a 204; `signal` aborts it.
 */
async function connect(fetch: FetchLike, request: SseRequest, signal: AbortSignal): Promise<SseBody | undefined> {
  const response = await fetch(request.url, { headers: request.headers, signal });
  if (!(await acceptAnswer(response))) return undefined;
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
}

/** The JSON of one message, read with the validator when one is given. */
function parseEvent<E>(
  message: EventSourceMessage,
  validator: StreamEventsOptions<E>['validator'],
  strict: boolean | undefined,
): ReadEvent<E> {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (error) {
    throw new CasiError(`Event ${message.id ?? '(no id)'} is not JSON: ${message.data.slice(0, 200)}`, {
      cause: error,
    });
  }
  return validator === undefined ? { event: data as E, known: true } : readEvent(validator, data, strict);
}

/** Network failures become `ApiConnectionError`; our own errors pass through. */
function asStreamError(error: unknown): unknown {
  if (error instanceof CasiError || error instanceof ValidationError) return error;
  return new ApiConnectionError('The event stream connection failed.', { cause: error });
}
