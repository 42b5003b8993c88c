/**
 * Reads an AsyncAPI channel served as an HTTP stream: Server-Sent Events (`text/event-stream`, each event's data a
 * message) or chunked JSON, one message per line (a blank line only keeps the connection alive). Each message is
 * validated tolerantly, like the WebSocket client's; one that is not valid goes to `onInvalid` and is not yielded.
 * An SSE stream whose connection drops is resumed, as `EventSource` does: `Last-Event-ID` names the last event seen.
 */
import { createParser } from 'eventsource-parser';
import type { ChannelDescriptor } from '../shared/channel.js';
import { classify, parseFrame } from '../shared/channel.js';
import { ValidationError } from '../shared/errors.js';
import { tolerant } from './channel-reading.js';
import { channelRequest } from './channel-url.js';
import { ApiConnectionError, errorFromResponse } from './errors.js';
import { HEALTHY_CONNECTION_MS, ReconnectBudget, type ReconnectOptions } from './reconnect.js';
import { sleep } from './retry.js';
import type { Credentials } from './security.js';
import { defaultFetch, type FetchLike } from './transport.js';

/** Options of a stream channel's reader; the credential goes where the channel's security scheme says. */
export interface StreamChannelOptions<Params, Query> extends Credentials, ReconnectOptions {
  /** Where the channel's address is appended (default: the document's server). */
  baseUrl?: string;
  params: Params;
  query?: Query;
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /** Ends the stream. */
  signal?: AbortSignal;
  /** Checks messages exactly, unknown members included (default false). */
  strict?: boolean;
  /** Receives each message that is not valid (it is not yielded). */
  onInvalid?: (error: ValidationError, data: unknown) => void;
}

/** One message's text and, in an SSE stream, its event id. */
interface Frame {
  readonly text: string;
  readonly id: string | undefined;
}

/**
 * The messages of the stream, until the server ends it or `signal` aborts; a refused request throws `ApiError`. A
 * dropped SSE connection is opened again (with backoff, `maxReconnects` times in a row at most; the server's
 * `retry:` sets the delay) and resumes after the last event id it sent; a dropped JSON-lines stream throws
 * `ApiConnectionError`, as it has no ids to resume from.
 */
export async function* readChannel<In, Params extends object, Query extends object>(
  channel: ChannelDescriptor,
  options: StreamChannelOptions<Params, Query>,
): AsyncGenerator<In, void, undefined> {
  const budget = new ReconnectBudget(options);
  const accepts = tolerant(options.strict === true);
  let lastEventId: string | undefined;
  let resumable = false;
  for (;;) {
    const openedAt = Date.now();
    const frames: Frame[] = [];
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    try {
      const response = await open(channel, options, lastEventId);
      if (response === undefined) return;
      const split = framing(response.headers.get('content-type') ?? '', frames, (ms) => {
        budget.baseDelayMs = ms;
      });
      resumable = split.sse;
      reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read().catch(failure(options.signal));
        split.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }), done);
        for (const frame of frames.splice(0)) {
          lastEventId = frame.id ?? lastEventId;
          budget.reset();
          const message = checked<In>(channel, frame.text, accepts, options.onInvalid);
          if (message !== undefined) yield message.value;
        }
        if (done) return;
      }
    } catch (error) {
      if (options.signal?.aborted || !resumable || !(error instanceof ApiConnectionError)) throw error;
      if (Date.now() - openedAt >= HEALTHY_CONNECTION_MS) budget.reset();
      await sleep(budget.next(error), options.signal);
    } finally {
      reader?.cancel().catch(() => {});
    }
  }
}

/** Sends the stream's request; the answer with a body, `undefined` for one without, `ApiError` for a refusal. */
async function open<Params extends object, Query extends object>(
  channel: ChannelDescriptor,
  options: StreamChannelOptions<Params, Query>,
  lastEventId: string | undefined,
): Promise<(Response & { body: ReadableStream<Uint8Array> }) | undefined> {
  const { url, headers } = channelRequest(channel, options);
  const response = await (options.fetch ?? defaultFetch)(url, {
    method: channel.method ?? 'GET',
    headers: {
      accept: 'text/event-stream, application/x-ndjson, application/json',
      ...headers,
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }).catch(failure(options.signal));
  if (!response.ok) throw errorFromResponse(response.status, await errorBody(response), response.headers);
  return response.body === null ? undefined : (response as Response & { body: ReadableStream<Uint8Array> });
}

/** A network failure of the stream as an `ApiConnectionError`; an abort by `signal` as it is. */
function failure(signal: AbortSignal | undefined): (cause: unknown) => never {
  return (cause) => {
    if (signal?.aborted) throw cause;
    throw new ApiConnectionError('The stream connection failed.', { cause });
  };
}

/** The message a frame's text holds when one of the channel's messages takes it; else reported to `onInvalid`. */
function checked<In>(
  channel: ChannelDescriptor,
  text: string,
  accepts: ReturnType<typeof tolerant>,
  onInvalid: StreamChannelOptions<object, object>['onInvalid'],
): { value: In } | undefined {
  let data: unknown;
  try {
    data = parseFrame(channel.name, text);
    classify(channel.name, channel.receive, data, accepts);
    return { value: data as In };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    onInvalid?.(error, data);
    return undefined;
  }
}

/**
 * A splitter of the body's text into `frames`: SSE events (their data and id; `retry:` goes to `onRetry`), or
 * non-blank lines.
 */
function framing(
  contentType: string,
  frames: Frame[],
  onRetry: (ms: number) => void,
): { sse: boolean; feed: (chunk: string, end: boolean) => void } {
  if (/^text\/event-stream/i.test(contentType)) {
    const parser = createParser({ onEvent: (event) => frames.push({ text: event.data, id: event.id }), onRetry });
    return { sse: true, feed: (chunk) => parser.feed(chunk) };
  }
  let rest = '';
  const feed = (chunk: string, end: boolean) => {
    const lines = (rest + chunk).split('\n');
    rest = end ? '' : (lines.pop() ?? '');
    for (const line of lines) if (line.trim() !== '') frames.push({ text: line, id: undefined });
  };
  return { sse: false, feed };
}

/** The body of a refused request: JSON when it parses, else its text. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
