/** Opens one WebSocket with the best implementation at hand (the global one, else `ws`) and reports its life. */
import { ApiConnectionError, type ApiError, errorFromResponse } from './errors.js';

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
 * `custom` when given (header-capable unless it is the global one); else `globalThis.WebSocket`; else `ws`, loaded
 * only then so browser bundles never need it.
 */
export async function loadWebSocket(custom?: WebSocketConstructor): Promise<WebSocketImplementation> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (custom !== undefined) return { WebSocket: custom, sendsHeaders: custom !== global };
  if (typeof global === 'function') return { WebSocket: global, sendsHeaders: false };
  const ws = await import('ws');
  return { WebSocket: ws.default as unknown as WebSocketConstructor, sendsHeaders: true };
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

/** Opens a socket; resolves once it has closed (listeners are attached before any frame can arrive). */
export function runSocket(
  impl: WebSocketImplementation,
  url: URL,
  headers: Record<string, string>,
  callbacks: SocketCallbacks,
  onCreated: (socket: WebSocketLike) => void,
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
    socket.addEventListener('open', () => {
      opened = true;
      callbacks.onOpen(socket);
    });
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (typeof event.data === 'string') callbacks.onText(event.data);
    });
    socket.addEventListener('error', (event: { error?: unknown; message?: string }) => {
      error ??= new ApiConnectionError(event.message ?? 'The socket failed.', { cause: event.error });
    });
    socket.addEventListener('close', (event: { code: number; reason: string }) => {
      resolve({ opened, code: event.code, reason: event.reason, error });
    });
    onCreated(socket);
  });
}

type NodeSocket = {
  on(event: 'unexpected-response', listener: (req: { destroy(): void }, res: HandshakeResponse) => void): void;
  terminate(): void;
};
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
