/** The reading side of `EventStream`: connects, parses with eventsource-parser, validates, resumes after drops. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { assertValid, ValidationError } from '../shared/validation.js';
import { ApiConnectionError, ApiTimeoutError, ApiUserAbortError, CasiError, errorFromResponse } from './errors.js';
import { type EventLedger, envelopeId } from './event-ledger.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget } from './reconnect.js';
import { sleep } from './retry.js';
import { forwardAbort } from './signals.js';
import type { StreamEventsOptions } from './sse.js';
import { authorizationHeader, defaultFetch, resolveToken } from './transport.js';
import { withQuery } from './url.js';

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
  const unlink = forwardAbort(options.signal, stream);
  const budget = new ReconnectBudget(options);
  const { idleTimeoutMs } = options;
  const validator = options.validate === false ? undefined : options.validator;
  try {
    for (;;) {
      const connection = new AbortController();
      const unlinkConnection = forwardAbort(stream.signal, connection);
      const idle = new IdleTimer(idleTimeoutMs, () => connection.abort());
      const openedAt = Date.now();
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      try {
        const response = await connect(options, ledger.lastEventId, connection.signal);
        if (response.status === 204) return;
        if (response.body === null) throw new ApiConnectionError('The event stream has no body.');
        reader = response.body.getReader();
        const pending: EventSourceMessage[] = [];
        const parser = createParser({
          onEvent: (message) => pending.push(message),
          onRetry: (ms) => {
            budget.baseDelayMs = ms;
          },
        });
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          idle.touch();
          parser.feed(done ? decoder.decode() : decoder.decode(value, STREAM));
          for (let i = 0; i < pending.length; i++) {
            const message = pending[i] as EventSourceMessage;
            const event = parseEvent<E>(message, validator);
            if (!ledger.accept(message.id ?? envelopeId(event))) continue;
            budget.reset();
            yield event;
            if (options.isTerminal?.(event)) return;
          }
          pending.length = 0;
          if (done) break;
        }
        throw new ApiConnectionError('The event stream ended before its last event.');
      } catch (error) {
        if (stream.signal.aborted) throw new ApiUserAbortError();
        const cause = idle.fired ? new ApiTimeoutError(`No data for ${idleTimeoutMs} ms.`) : asStreamError(error);
        if (Date.now() - openedAt >= HEALTHY_CONNECTION_MS) budget.reset();
        await sleep(budget.next(cause), stream.signal);
      } finally {
        reader?.cancel().catch(() => {});
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

/**
 * Fires once when `ms` pass without a `touch()`; 0 disables it. A touch only records the time: the one timer
 * checks it when it fires and waits for the rest if there was activity meanwhile.
 */
class IdleTimer {
  fired = false;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly ms: number,
    readonly onIdle: () => void,
  ) {
    if (ms > 0) this.#arm(ms);
  }
  touch(): void {
    this.#last = performance.now();
  }
  stop(): void {
    clearTimeout(this.#timer);
  }
  #arm(delay: number): void {
    this.#timer = setTimeout(() => {
      const silent = performance.now() - this.#last;
      if (silent < this.ms) return this.#arm(this.ms - silent);
      this.fired = true;
      this.onIdle();
    }, delay);
  }
}
