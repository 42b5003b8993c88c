/**
 * The Node transport of event streams: `node:http` / `node:https` requests, the body taken from the response's
 * `data` events as text. It sends what the fetch transport sends and answers the same way (`acceptAnswer`), follows
 * redirects as fetch does, and hands the text to the same parser; it skips fetch's web streams and the promise hops
 * between them, once per chunk. The modules come from `process.getBuiltinModule`, so no bundler resolves `node:http`
 * and a browser bundle only carries this file as a chunk it never loads.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { headersOf, type NodeRequest, nodeRequestFor, type RequestFor, readText, redirected } from './node-http.js';
import { acceptAnswer, type SseBody, type SseConnect } from './sse-reader.js';

/** Text held while the reader is busy before the socket is paused (the reader resumes it). */
const HIGH_WATER_MARK = 64 * 1024;

/** The `node:http` transport (in Node only: see `hasNodeHttp`). */
export function nodeTransport(): SseConnect {
  const requestFor = nodeRequestFor();
  return async (sse, signal) => {
    let request: NodeRequest = {
      url: sse.url,
      method: 'GET',
      headers: Object.fromEntries(sse.headers),
      body: undefined,
    };
    for (let redirects = 0; ; redirects++) {
      const { req, res } = await get(requestFor, request, signal);
      let next: NodeRequest | undefined;
      try {
        next = redirected(request, res, redirects);
      } catch (error) {
        req.destroy();
        throw error;
      }
      if (next !== undefined) {
        res.resume();
        req.destroy();
        request = next;
        continue;
      }
      const accepted = await acceptAnswer({
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'] ?? null,
        headers: () => headersOf(res),
        text: () => readText(res),
        discard: async () => {
          req.destroy();
        },
      }).catch((error: unknown) => {
        req.destroy();
        throw error;
      });
      if (accepted) return new ResponseBody(req, res, signal);
      req.destroy();
      return undefined;
    }
  };
}

/** Sends one GET and resolves once the status and headers are in. */
function get(requestFor: RequestFor, request: NodeRequest, signal: AbortSignal) {
  return new Promise<{ req: ClientRequest; res: IncomingMessage }>((resolve, reject) => {
    const req = requestFor(request.url)(request.url, { headers: request.headers, signal });
    req.on('error', reject);
    req.once('response', (res) => resolve({ req, res }));
    req.end();
  });
}

/**
 * An SSE body over a response: `data` events (decoded by the response's own UTF-8 decoder) are queued and handed
 * out together at the next `read()`, so text that arrived while the reader was busy is parsed in one pass.
 */
class ResponseBody implements SseBody {
  #queued = '';
  #ended = false;
  #failure: unknown;
  #first = true;
  #waiting: { resolve: (text: string | undefined) => void; reject: (error: unknown) => void } | undefined;
  readonly #onAbort = () => this.#fail(this.signal.reason);

  constructor(
    readonly req: ClientRequest,
    readonly res: IncomingMessage,
    readonly signal: AbortSignal,
  ) {
    res.setEncoding('utf8');
    res.on('data', (text: string) => this.#push(text));
    res.once('end', () => this.#end());
    res.on('error', (error) => this.#fail(error));
    res.once('close', () => this.#fail(new Error('The connection closed before the body ended.')));
    req.on('error', (error) => this.#fail(error));
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  read(): Promise<string | undefined> {
    if (this.#queued !== '') {
      const text = this.#queued;
      this.#queued = '';
      if (this.res.isPaused()) this.res.resume();
      return Promise.resolve(text);
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  cancel(): void {
    this.signal.removeEventListener('abort', this.#onAbort);
    this.req.destroy();
  }

  #push(chunk: string): void {
    // A byte order mark opening the body is not text (fetch's TextDecoder drops it the same way).
    let text = chunk;
    if (this.#first) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const waiting = this.#waiting;
    if (waiting !== undefined && this.#queued === '') {
      this.#waiting = undefined;
      waiting.resolve(text);
      return;
    }
    this.#queued += text;
    if (this.#queued.length > HIGH_WATER_MARK) this.res.pause();
  }

  #end(): void {
    this.#ended = true;
    this.#settle();
  }

  #fail(error: unknown): void {
    if (this.#ended || this.#failure !== undefined) return;
    this.#failure = error ?? new Error('The connection failed.');
    this.#settle();
  }

  /** Answers a waiting `read()` once the body has ended or failed. */
  #settle(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    this.#waiting = undefined;
    if (this.#failure !== undefined) waiting.reject(this.#failure);
    else waiting.resolve(undefined);
  }
}
