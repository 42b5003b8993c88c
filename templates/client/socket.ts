/**
 * Opens one WebSocket with the implementation that can do the job (`ws` in Node, the global one in browsers) and
 * reports its life; with `ws`, whose pings are visible, a socket silent for too long is dropped.
 */
import { ApiConnectionError, type ApiError, CasiError, errorFromResponse } from './errors.js';
import { IdleTimer } from './idle-timer.js';

/** The part of the WHATWG WebSocket API a session uses; browsers, Node 22+ and `ws` all provide it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
}

/** A WebSocket constructor; `ws` also takes `{ headers }` as its third argument. */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

/** The implementation in use, and whether it can send handshake headers (`ws` can, browsers cannot). */
export interface WebSocketImplementation {
  readonly WebSocket: WebSocketConstructor;
  readonly sendsHeaders: boolean;
}

/** `readyState` of an open socket. */
export const OPEN = 1;

/**
 * `custom` when given (header-capable unless it is the global one). Else, in Node, `ws` (an optional peer dependency,
 * loaded only then) when it can be loaded: it sends the API key in `Authorization`, which the global WebSocket of
 * Node 22+ cannot. Else `globalThis.WebSocket` (browsers; Node without `ws`, where only a token in the query works).
 * Rejects with a `CasiError` saying what to do when there is none of them.
 */
export async function loadWebSocket(custom?: WebSocketConstructor): Promise<WebSocketImplementation> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (custom !== undefined) return { WebSocket: custom, sendsHeaders: custom !== global };
  let cause: unknown;
  if (isNode() || typeof global !== 'function') {
    const ws: { default?: unknown } = await import('ws').catch((error: unknown) => {
      cause = error;
      return {};
    });
    // A bundle that maps `ws` to an empty module (its `browser` field) has no constructor there.
    if (typeof ws.default === 'function') return { WebSocket: ws.default as WebSocketConstructor, sendsHeaders: true };
  }
  if (typeof global === 'function') return { WebSocket: global, sendsHeaders: false };
  throw noWebSocket(cause);
}

/** Whether this is Node (or a runtime that says it is one), where `ws` is the WebSocket that sends headers. */
function isNode(): boolean {
  return typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
}

/** The error of a runtime with neither a global WebSocket nor `ws`. */
function noWebSocket(cause: unknown): CasiError {
  return new CasiError(
    'No WebSocket implementation: this runtime has no global WebSocket and the package `ws` could not be loaded. ' +
      'Install it (`npm install ws`) or pass one as the `WebSocket` option.',
    { cause },
  );
}

/** What happened to one socket, reported once when it has closed. */
export interface SocketOutcome {
  /** The handshake succeeded. */
  readonly opened: boolean;
  readonly code: number;
  readonly reason: string;
  /** The handshake was refused with an HTTP answer (`ws` only), could not be prepared, or the socket failed. */
  readonly error: unknown;
}

/** Callbacks of one socket: `onOpen` once, `onText` per text frame. */
export interface SocketCallbacks {
  onOpen(socket: WebSocketLike): void;
  onText(text: string): void;
}

/**
 * Opens a socket; resolves once it has closed (listeners are attached before any frame can arrive). With `ws`, an
 * open socket that receives no frame and no ping for `idleTimeoutMs` (0: never) is terminated, and its outcome has an
 * `ApiConnectionError`; other implementations do not show pings, so there it is ignored.
 */
export function runSocket(
  impl: WebSocketImplementation,
  url: URL,
  headers: Record<string, string>,
  callbacks: SocketCallbacks,
  onCreated: (socket: WebSocketLike) => void,
  idleTimeoutMs = 0,
): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    let opened = false;
    let error: ApiError | ApiConnectionError | undefined;
    let socket: WebSocketLike;
    try {
      socket = impl.sendsHeaders ? new impl.WebSocket(url.href, undefined, { headers }) : new impl.WebSocket(url.href);
    } catch (cause) {
      resolve({ opened, code: 1006, reason: '', error: new ApiConnectionError('Cannot open the socket.', { cause }) });
      return;
    }
    captureRefusal(socket, (refusal) => {
      error = refusal;
    });
    let idle: IdleTimer | undefined;
    socket.addEventListener('open', () => {
      opened = true;
      idle = watchIdle(socket, idleTimeoutMs, () => {
        error ??= new ApiConnectionError(`No frame and no ping for ${idleTimeoutMs} ms: the connection is dead.`);
      });
      callbacks.onOpen(socket);
    });
    socket.addEventListener('message', (event: { data: unknown }) => {
      idle?.touch();
      if (typeof event.data === 'string') callbacks.onText(event.data);
    });
    socket.addEventListener('error', (event: { error?: unknown; message?: string }) => {
      error ??= new ApiConnectionError(event.message ?? 'The socket failed.', { cause: event.error });
    });
    socket.addEventListener('close', (event: { code: number; reason: string }) => {
      idle?.stop();
      resolve({ opened, code: event.code, reason: event.reason, error });
    });
    onCreated(socket);
  });
}

type NodeSocket = {
  on(event: 'unexpected-response', listener: (req: { destroy(): void }, res: HandshakeResponse) => void): void;
  on(event: 'ping' | 'pong', listener: () => void): void;
  terminate(): void;
};

/**
 * With `ws`: an idle timer that every ping (and pong) touches, and that terminates the socket once `ms` pass without
 * one or a frame (`onIdle` is called first). `undefined` when `ms` is 0 or the socket does not show pings.
 */
function watchIdle(socket: WebSocketLike, ms: number, onIdle: () => void): IdleTimer | undefined {
  const node = socket as unknown as Partial<NodeSocket>;
  if (!(ms > 0 && Number.isFinite(ms)) || typeof node.on !== 'function' || typeof node.terminate !== 'function')
    return undefined;
  const idle = new IdleTimer(ms, () => {
    onIdle();
    node.terminate?.();
  });
  const touch = () => idle.touch();
  node.on('ping', touch);
  node.on('pong', touch);
  return idle;
}
type HandshakeResponse = AsyncIterable<Uint8Array | string> & {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
};

/** With `ws`, turns a refused handshake (its HTTP status and `Error` body) into the `ApiError` family. */
function captureRefusal(socket: WebSocketLike, onRefusal: (error: ApiError) => void): void {
  const node = socket as unknown as Partial<NodeSocket>;
  if (typeof node.on !== 'function') return;
  node.on('unexpected-response', (req, res) => {
    readText(res)
      .then((text) => onRefusal(errorFromResponse(res.statusCode ?? 0, parseJson(text), toHeaders(res.headers))))
      .catch(() => onRefusal(errorFromResponse(res.statusCode ?? 0, undefined, toHeaders(res.headers))))
      .finally(() => {
        req.destroy();
        node.terminate?.();
      });
  });
}

const MAX_REFUSAL_BODY = 64 * 1024;

async function readText(res: AsyncIterable<Uint8Array | string>): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text.length > MAX_REFUSAL_BODY) break;
  }
  return text + decoder.decode();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}
