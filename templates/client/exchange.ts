/**
 * One attempt of a REST call over fetch (`Exchange`): the request goes out, the answer comes back read as the call
 * asks (text, a Blob, or an event stream left open), and the attempt's timeout cancels it.
 */
import { ApiConnectionError, ApiUserAbortError, CasiError } from './errors.js';
import { forwardAbort } from './transport.js';

/** What one attempt sends: the method, the headers by lower-case name, and the body. */
export interface Outgoing {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: BodyInit | undefined;
}

/**
 * How a success answer is read: `json` and `text` as text, `blob` as a `Blob`, `event-stream` as the items of its
 * events (the body left open). Error answers are always read as text.
 */
export type ReadAs = 'json' | 'text' | 'blob' | 'event-stream';

/**
 * What one attempt gets back: the status, the body as text (empty for a Blob or an event stream), the body as read
 * for those two, and the headers (read only for errors).
 */
export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly data?: Blob | AsyncIterable<unknown> | undefined;
  /** The fetch answer itself (its body read as above). */
  readonly response: Response;
  headers(): Headers;
}

/** How one attempt may be stopped: the caller's signal, and a timeout (`Infinity`: none). */
export interface Limits {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
}

/**
 * The rejection of an attempt whose timeout passed first (its request is cancelled): a `DOMException` named
 * `TimeoutError`, as `AbortSignal.timeout` gives.
 */
function timedOut(timeoutMs: number): DOMException {
  return new DOMException(`Timed out after ${timeoutMs} ms.`, 'TimeoutError');
}

/** Whether `error` is an attempt's timeout (`timedOut`). */
export function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}

/**
 * Sends one attempt to `url` and reads the answer as `readAs` says (default `json`); rejects with a timeout
 * (`isTimeout`) once `limits.timeoutMs` has passed, with the signal's reason once it aborts, and with fetch's error
 * when the connection fails. The timeout covers the whole body, but for an event stream only its headers: the
 * caller's signal still ends the stream.
 */
export type Exchange = (url: string, request: Outgoing, limits: Limits, readAs?: ReadAs) => Promise<Answer>;

const noop = () => {};

/** The exchange over `send` (a fetch), called with the URL and an init holding `extra` (any other `RequestInit`). */
export function fetchExchange(
  send: (url: string, init: RequestInit) => Promise<Response>,
  extra: RequestInit = {},
): Exchange {
  return async (url, request, limits, readAs = 'json') => {
    const init: RequestInit = { ...extra, method: request.method, headers: request.headers, body: request.body };
    // A stream body is sent as it is read (fetch asks to be told so).
    if (request.body !== undefined && request.body instanceof ReadableStream) Object.assign(init, { duplex: 'half' });
    if (!Number.isFinite(limits.timeoutMs)) {
      return answerOf(await send(url, { ...init, signal: limits.signal }), readAs, limits.signal, noop);
    }
    const controller = new AbortController();
    const unlink = forwardAbort(limits.signal, controller);
    let expired = false;
    let streaming = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, limits.timeoutMs);
    try {
      const response = await send(url, { ...init, signal: controller.signal });
      streaming = readAs === 'event-stream' && response.ok;
      if (streaming) clearTimeout(timer);
      return await answerOf(response, readAs, controller.signal, unlink);
    } catch (error) {
      streaming = false;
      throw expired ? timedOut(limits.timeoutMs) : error;
    } finally {
      clearTimeout(timer);
      if (!streaming) unlink();
    }
  };
}

/**
 * The answer with its body read as `readAs` says (error answers as text); an event stream's items end with
 * `release` called, and `signal` cancels them.
 */
async function answerOf(
  response: Response,
  readAs: ReadAs,
  signal: AbortSignal | undefined,
  release: () => void,
): Promise<Answer> {
  const headers = () => response.headers;
  if (readAs === 'json' || readAs === 'text' || !response.ok) {
    return { status: response.status, text: await response.text(), response, headers };
  }
  if (readAs === 'blob') return { status: response.status, text: '', data: await response.blob(), response, headers };
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 204 && !type.toLowerCase().startsWith('text/event-stream')) {
    release();
    await response.body?.cancel();
    throw new CasiError(`Expected a text/event-stream answer, got ${type || 'no content type'}.`);
  }
  // Loaded on the first event stream, so that a page without one leaves the reader out; it imports no module of
  // the core, which would otherwise be split into a chunk of its own.
  const { eventStreamItems } = await import('./event-stream-items.js');
  const failure = (error: unknown) =>
    signal?.aborted
      ? new ApiUserAbortError()
      : new ApiConnectionError('The event stream connection failed.', { cause: error });
  return {
    status: response.status,
    text: '',
    data: eventStreamItems(response, signal, release, failure),
    response,
    headers,
  };
}
