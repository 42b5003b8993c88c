/**
 * Reads an AsyncAPI channel served as an HTTP stream: Server-Sent Events (`text/event-stream`, each event's data a
 * message) or chunked JSON, one message per line (a blank line only keeps the connection alive). Each message is
 * validated tolerantly, like the WebSocket client's; one that is not valid goes to `onInvalid` and is not yielded.
 */
import { createParser } from 'eventsource-parser';
import type { ChannelDescriptor } from '../shared/channel.js';
import { classify, parseFrame } from '../shared/channel.js';
import { ValidationError } from '../shared/errors.js';
import { tolerant } from './channel-reading.js';
import { channelRequest } from './channel-url.js';
import { errorFromResponse } from './errors.js';
import type { Credentials } from './security.js';
import { defaultFetch, type FetchLike } from './transport.js';

/** Options of a stream channel's reader; the credential goes where the channel's security scheme says. */
export interface StreamChannelOptions<Params, Query> extends Credentials {
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

/** The messages of the stream, until the server ends it or `signal` aborts; a refused request throws `ApiError`. */
export async function* readChannel<In, Params extends object, Query extends object>(
  channel: ChannelDescriptor,
  options: StreamChannelOptions<Params, Query>,
): AsyncGenerator<In, void, undefined> {
  const fetch = options.fetch ?? defaultFetch;
  const { url, headers } = channelRequest(channel, options);
  const response = await fetch(url, {
    method: channel.method ?? 'GET',
    headers: { accept: 'text/event-stream, application/x-ndjson, application/json', ...headers },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!response.ok) throw errorFromResponse(response.status, await errorBody(response), response.headers);
  if (response.body === null) return;
  const accepts = tolerant(options.strict === true);
  const texts: string[] = [];
  const split = framing(response.headers.get('content-type') ?? '', (text) => texts.push(text));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      split(done ? decoder.decode() : decoder.decode(value, { stream: true }), done);
      for (const text of texts.splice(0)) {
        let data: unknown;
        try {
          data = parseFrame(channel.name, text);
          classify(channel.name, channel.receive, data, accepts);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          options.onInvalid?.(error, data);
          continue;
        }
        yield data as In;
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** A splitter of the body's text into message texts: SSE event data, or non-blank lines. */
function framing(contentType: string, onText: (text: string) => void): (chunk: string, end: boolean) => void {
  if (/^text\/event-stream/i.test(contentType)) {
    const parser = createParser({ onEvent: (event) => onText(event.data) });
    return (chunk) => parser.feed(chunk);
  }
  let rest = '';
  return (chunk, end) => {
    const lines = (rest + chunk).split('\n');
    rest = end ? '' : (lines.pop() ?? '');
    for (const line of lines) if (line.trim() !== '') onText(line);
  };
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
