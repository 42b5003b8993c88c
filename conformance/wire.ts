/**
 * One request on the wire, as the checks see it: plain HTTP (fetch), an SSE stream read until it ends or goes quiet,
 * or a WebSocket handshake whose frames are read the same way. No client library shapes what is sent.
 */
import { createParser } from 'eventsource-parser';
import WebSocket from 'ws';

/** A request with the path already expanded; `body` is the raw text sent (malformed JSON included). */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Open a WebSocket instead of sending an HTTP request. */
  readonly websocket?: boolean;
  /** With `websocket`: text frames sent once the socket is open. */
  readonly frames?: readonly string[];
}

/** What came back. `events` holds the parsed `data` of SSE messages or the text frames of a socket. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The media type without parameters, lower case; '' when absent. */
  readonly contentType: string;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  readonly json: unknown;
  readonly events: readonly unknown[];
  /** For SSE: the `id:` of each message of `events` (undefined when absent); empty otherwise. */
  readonly messageIds: readonly (string | undefined)[];
  /** For SSE: the `event:` names given (the spec uses none). */
  readonly eventNames: readonly string[];
  /** Frames or SSE data that were not JSON. */
  readonly malformedEvents: readonly string[];
  /**
   * Set when no (complete) answer came: the connection was refused, reset or closed, or nothing came in time. The
   * status is then 0 (which no operation declares) and `text` says the same.
   */
  readonly error?: string;
  /** With `error`: whether the peer closed or reset a connection that had been open (not a refusal or a timeout). */
  readonly closedByPeer?: boolean;
}

/** Limits of reading a stream or a socket that stays open. */
export interface ReadLimits {
  /** Stop after this long without a byte or frame (the history of a stream comes at once). Default 40 ms. */
  readonly idleMs?: number;
  /** Stop after this long in any case. Default 2000 ms. */
  readonly maxMs?: number;
}

/** The event fields of an answer that carried no events. */
export const NO_EVENTS = { events: [], messageIds: [], eventNames: [], malformedEvents: [] } as const;

/** Longest wait for the status line of an answer (or a handshake); past it the answer is `noAnswer`. */
export const ANSWER_TIMEOUT_MS = 10_000;

/** Error codes of a connection the peer closed or reset after it was open. */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The answer that stands for none: status 0, `error` and `text` saying why. */
export function noAnswer(error: string, closedByPeer = false): WireResponse {
  return {
    ...NO_EVENTS,
    status: 0,
    headers: {},
    contentType: '',
    text: `no answer: ${error}`,
    json: undefined,
    error,
    ...(closedByPeer ? { closedByPeer } : {}),
  };
}

/** The answer to a request that failed with `error` on the network (fetch's `cause` chain spelt out). */
function networkFailure(error: unknown, during = ''): WireResponse {
  const codes = causes(error)
    .map((e) => (e as { code?: unknown }).code)
    .filter((c): c is string => typeof c === 'string');
  return noAnswer(
    `${during}${networkErrorText(error)}`,
    codes.some((c) => CLOSED_CODES.has(c)),
  );
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 5; e = (e as { cause?: unknown }).cause) {
    const inner = (e as { errors?: unknown }).errors;
    chain.push(e, ...(Array.isArray(inner) ? inner : []));
  }
  return chain;
}

/** `fetch failed: read ECONNRESET`: the message of an error and of its causes, with their codes. */
export function networkErrorText(error: unknown): string {
  const parts: string[] = [];
  for (const e of causes(error)) {
    const message = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: unknown }).code;
    const text = typeof code === 'string' && !message.includes(code) ? `${message} (${code})`.trim() : message;
    if (text !== '' && !parts.includes(text)) parts.push(text);
  }
  return parts.join(': ') || 'network error';
}

/** `404 {"code":…}`, or `no answer: …` when none came; the text cut at `max` characters. */
export function describeAnswer(response: WireResponse, max = 300): string {
  return response.error === undefined ? `${response.status} ${response.text.slice(0, max)}` : response.text;
}

/** Whether `response` is a success: a 2xx, or 101 for a WebSocket handshake (an answer that did not come is not). */
export function isSuccess(response: Pick<WireResponse, 'status'>): boolean {
  return (response.status >= 200 && response.status < 300) || response.status === 101;
}

/** `/a/{id}` with `{id: 'x y'}` → `/a/x%20y`. */
export function expandPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
}

/** The absolute URL of `request` on `baseUrl`. */
export function urlOf(baseUrl: string, request: WireRequest): URL {
  const url = new URL(request.path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, value);
  return url;
}

/** Sends `request` and reads the answer (a stream or a socket until it ends, goes quiet or `maxMs` passes). */
export function send(baseUrl: string, request: WireRequest, limits: ReadLimits = {}): Promise<WireResponse> {
  return request.websocket ? openSocket(baseUrl, request, limits) : sendHttp(baseUrl, request, limits);
}

async function sendHttp(baseUrl: string, request: WireRequest, limits: ReadLimits): Promise<WireResponse> {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ANSWER_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(urlOf(baseUrl, request), {
      method: request.method,
      headers: request.headers ?? {},
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) return noAnswer(`no answer within ${ANSWER_TIMEOUT_MS} ms`);
    return networkFailure(error);
  } finally {
    clearTimeout(timeout);
  }
  const headers = Object.fromEntries(response.headers);
  const contentType = mediaType(headers['content-type']);
  if (contentType !== 'text/event-stream') {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return networkFailure(error, `the connection failed while the body of a ${response.status} answer came: `);
    }
    return { ...NO_EVENTS, status: response.status, headers, contentType, text, json: parseJson(text) };
  }
  const events: unknown[] = [];
  const messageIds: (string | undefined)[] = [];
  const eventNames: string[] = [];
  const malformedEvents: string[] = [];
  const parser = createParser({
    onEvent: (message) => {
      const value = parseJson(message.data);
      if (message.event !== undefined) eventNames.push(message.event);
      if (value === undefined) malformedEvents.push(message.data);
      else {
        events.push(value);
        messageIds.push(message.id);
      }
    },
  });
  let text: string;
  try {
    text = await readUntilQuiet(response, limits, controller, (chunk) => parser.feed(chunk));
  } catch (error) {
    return networkFailure(error, `the connection failed during the event stream (${events.length} event(s) read): `);
  }
  return {
    status: response.status,
    headers,
    contentType,
    text,
    json: undefined,
    events,
    messageIds,
    eventNames,
    malformedEvents,
  };
}

/** Reads a streamed body until it ends, is quiet for `idleMs`, or `maxMs` passes; then aborts the request. */
async function readUntilQuiet(
  response: Response,
  limits: ReadLimits,
  controller: AbortController,
  onText: (chunk: string) => void,
): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  const deadline = Date.now() + (limits.maxMs ?? 2000);
  let text = '';
  try {
    for (;;) {
      const wait = Math.min(limits.idleMs ?? 40, deadline - Date.now());
      if (wait <= 0) break;
      const next = await Promise.race([reader.read(), delay(wait).then(() => 'quiet' as const)]);
      if (next === 'quiet' || next.done) break;
      const chunk = decoder.decode(next.value, { stream: true });
      text += chunk;
      onText(chunk);
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

function openSocket(baseUrl: string, request: WireRequest, limits: ReadLimits): Promise<WireResponse> {
  const url = urlOf(baseUrl, request);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: { ...request.headers } });
    const events: unknown[] = [];
    const malformedEvents: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let opened = false;
    // No handshake answer in time is an answer of its own: status 0, which no operation declares.
    const handshakeTimeout = setTimeout(() => {
      socket.terminate();
      resolve(noAnswer(`no handshake answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    const hardStop = setTimeout(() => finish(), ANSWER_TIMEOUT_MS + (limits.maxMs ?? 2000));
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(hardStop);
      socket.terminate();
      if (!opened) return;
      resolve({
        ...NO_EVENTS,
        status: 101,
        headers: {},
        contentType: '',
        text: '',
        json: undefined,
        events,
        malformedEvents,
      });
    };
    const quietAfter = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, limits.idleMs ?? 40);
    };
    socket.on('open', () => {
      opened = true;
      clearTimeout(handshakeTimeout);
      clearTimeout(hardStop);
      setTimeout(finish, limits.maxMs ?? 2000);
      for (const frame of request.frames ?? []) socket.send(frame);
      quietAfter();
    });
    socket.on('message', (data, binary) => {
      const text = binary ? '' : data.toString();
      const value = parseJson(text);
      if (value === undefined) malformedEvents.push(text);
      else events.push(value);
      quietAfter();
    });
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(hardStop);
      clearTimeout(handshakeTimeout);
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        const contentType = mediaType(headers['content-type']);
        resolve({ ...NO_EVENTS, status: response.statusCode ?? 0, headers, contentType, text, json: parseJson(text) });
        socket.terminate();
      });
    });
    // Before the handshake: no answer (refused, reset, not a WebSocket answer). After it: the frames read so far.
    socket.on('error', (error) => {
      clearTimeout(handshakeTimeout);
      if (opened) {
        finish();
        return;
      }
      clearTimeout(hardStop);
      clearTimeout(timer);
      if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
      resolve(networkFailure(error));
    });
  });
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** JSON.parse that answers undefined instead of throwing (and for the empty text). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Resolves after `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
