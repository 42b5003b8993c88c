/**
 * One attempt of a REST call over fetch (`Exchange`): the request goes out, the whole answer comes back as text,
 * and the attempt's timeout cancels it.
 */
import { forwardAbort } from './transport.js';

/** What one attempt sends: the method, the headers by lower-case name, and the body as text. */
export interface Outgoing {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** What one attempt gets back: the status, the body as text, and the headers (read only for errors). */
export interface Answer {
  readonly status: number;
  readonly text: string;
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
 * Sends one attempt to `url` and reads the whole answer; rejects with a timeout (`isTimeout`) once
 * `limits.timeoutMs` has passed, with the signal's reason once it aborts, and with fetch's error when the connection
 * fails.
 */
export type Exchange = (url: string, request: Outgoing, limits: Limits) => Promise<Answer>;

/** The exchange over `send` (a fetch), called with the URL and an init holding `extra` (any other `RequestInit`). */
export function fetchExchange(
  send: (url: string, init: RequestInit) => Promise<Response>,
  extra: RequestInit = {},
): Exchange {
  return async (url, request, limits) => {
    const init: RequestInit = { ...extra, method: request.method, headers: request.headers, body: request.body };
    if (!Number.isFinite(limits.timeoutMs)) return answerOf(await send(url, { ...init, signal: limits.signal }));
    const controller = new AbortController();
    const unlink = forwardAbort(limits.signal, controller);
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, limits.timeoutMs);
    try {
      return answerOf(await send(url, { ...init, signal: controller.signal }));
    } catch (error) {
      throw expired ? timedOut(limits.timeoutMs) : error;
    } finally {
      clearTimeout(timer);
      unlink();
    }
  };

  /** The answer with its whole body read (within the attempt's timeout). */
  async function answerOf(response: Response): Promise<Answer> {
    const text = await response.text();
    return { status: response.status, text, headers: () => response.headers };
  }
}
