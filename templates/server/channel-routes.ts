/**
 * WebSocket routes of AsyncAPI channels: each channel's address (with its parameters) accepts connections, the `ws`
 * binding's query is checked before the upgrade, every received message is validated (an invalid one closes the
 * socket with 1007) and `send` refuses a message the channel does not carry. `ws` is loaded when routes register.
 * `authenticate` runs before the query is read; its refusal (an `HttpError`, 401 say) is answered before any upgrade.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { ChannelDescriptor, QueryMemberType } from '../shared/channel.js';
import { classify, parseFrame } from '../shared/channel.js';
import { toErrorAnswer } from './error-handler.js';
import { HttpError, invalidRequest } from './errors.js';
import type { IncomingRequest } from './handlers.js';
import { compilePath, pathOf } from './path.js';
import { parseQuery } from './query.js';
import { writeRawError } from './raw-answer.js';
import { claimUpgrades } from './upgrade-claims.js';

/** The handshake of a connection, as a handler sees it. */
export interface ChannelRequest<Params, Query> {
  readonly params: Params;
  readonly query: Query;
  readonly headers: IncomingHttpHeaders;
  /** What `authenticate` returned (undefined without it). */
  readonly auth: unknown;
  readonly raw: IncomingMessage;
}

/** One connection: `Out` is what the server sends, `In` what it receives, `ByKey` `In` narrowed by key. */
export interface ChannelPeer<Out, In, ByKey> extends AsyncIterable<In> {
  /** Validates `message` (rejects with `ValidationError`) and sends it; resolves to false if the socket is closed. */
  send(message: Out): Promise<boolean>;
  on<K extends keyof ByKey & string>(key: K, listener: (message: ByKey[K]) => void): void;
  onMessage(listener: (message: In, key: string) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
  close(code?: number, reason?: string): void;
  readonly raw: WebSocket;
}

/** Serves one connection of a channel. */
export type ChannelHandler<Params, Query, Out, In, ByKey> = (
  request: ChannelRequest<Params, Query>,
  peer: ChannelPeer<Out, In, ByKey>,
) => void | Promise<void>;

/** A channel with the handler that serves it. */
export interface ChannelRoute {
  readonly channel: ChannelDescriptor;
  /** Any channel's handler: the generated `registerChannels` gives each channel its own types. */
  readonly handler: (request: never, peer: never) => void | Promise<void>;
}

/**
 * Checks a connection's credential (the channel's `security` names the schemes it may use) and returns what the
 * handler gets as `request.auth`; throws `HttpError` 401 or 403 to refuse. Called first, for every channel.
 */
export type ChannelAuthenticate = (request: IncomingRequest, channel: ChannelDescriptor) => unknown;

/** Options of `registerChannelRoutes`. */
export interface ChannelRouteOptions {
  /** The largest message accepted, in bytes (default 1 MiB). */
  readonly maxPayload?: number;
  readonly authenticate?: ChannelAuthenticate;
  /** Checks each message a stream channel's handler writes (default false: the WebSocket `send` always checks). */
  readonly validateResponses?: boolean;
}

/** Close code of a message that is not one the channel carries (RFC 6455: inconsistent data). */
export const INVALID_MESSAGE = 1007;

/** Answers WebSocket upgrades on the channels' addresses of `app`'s server. */
export function registerChannelRoutes(
  app: FastifyInstance,
  routes: readonly ChannelRoute[],
  options: ChannelRouteOptions = {},
): void {
  const matchers = routes.map((route) => ({ route, matcher: compilePath(route.channel.address) }));
  const loading = import('ws').then(
    ({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 1 << 20 }),
  );
  loading.catch(() => {});
  const sockets = new Set<WebSocket>();
  const owns = (path: string) => matchers.some((m) => m.matcher.match(path) != null);
  const unknownPath = claimUpgrades(app.server, owns);
  app.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = raw.url ?? '/';
    const found = matchers.map((m) => ({ ...m, params: m.matcher.match(pathOf(url)) })).find((m) => m.params);
    if (found?.params == null) {
      if (unknownPath(pathOf(url)) === 'answer')
        writeRawError(socket, new HttpError(404, 'route_not_found', `No channel has the path ${pathOf(url)}.`));
      return;
    }
    socket.on('error', () => socket.destroy());
    const { route, params } = found;
    admitChannel(route.channel, raw, params, options, app.log).then(
      (request) => upgrade(request),
      (error: unknown) => {
        const answer = toErrorAnswer(error, options.maxPayload ?? 1 << 20);
        if (answer.internal) app.log.error({ err: error }, 'internal error during a channel handshake');
        writeRawError(socket, answer.error);
      },
    );
    function upgrade(request: ChannelRequest<unknown, unknown>) {
      if (socket.destroyed) return;
      loading.then(
        (wss) =>
          wss.handleUpgrade(raw, socket, head, (ws) => {
            sockets.add(ws);
            ws.once('close', () => sockets.delete(ws));
            serve(app, route, request, ws);
          }),
        (error: unknown) => {
          app.log.error({ err: error }, 'the package ws is needed for WebSocket channels');
          writeRawError(socket, new HttpError(500, 'internal_error', 'WebSocket channels are not available.'));
        },
      );
    }
  });
  // Before the HTTP server closes, which waits for its connections (upgraded sockets among them).
  app.addHook('preClose', async () => {
    await Promise.all([...sockets].map((ws) => closeSocket(ws)));
  });
  app.addHook('onClose', async () => {
    const wss = await loading.catch(() => undefined);
    if (wss !== undefined) await new Promise((resolve) => wss.close(resolve));
  });
}

/** Milliseconds a socket has to answer the closing handshake before it is cut. */
const CLOSE_GRACE_MS = 1000;

/** Closes `ws` with 1001 and resolves once it has closed (cut after the grace period). */
function closeSocket(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    const cut = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    ws.close(1001, 'server closing');
  });
}

/**
 * Authenticates a request to a channel, then checks its parameters, its `ws` binding's headers and its query; resolves
 * to the handler's request, or rejects with the `HttpError` to answer.
 */
export async function admitChannel(
  channel: ChannelDescriptor,
  raw: IncomingMessage,
  params: Readonly<Record<string, string>>,
  options: ChannelRouteOptions,
  log: FastifyBaseLogger,
): Promise<ChannelRequest<unknown, unknown>> {
  const url = raw.url ?? '/';
  const path = pathOf(url);
  const search = url.slice(path.length + 1);
  const auth = await options.authenticate?.(
    { method: raw.method ?? 'GET', path, headers: raw.headers, query: parseQuery(search), params, raw, log },
    channel,
  );
  checkParameters(channel, params);
  checkHeaders(channel, raw.headers);
  const query = checkedQuery(channel, search);
  return { params, query, headers: raw.headers, auth, raw };
}

/** Throws the `invalid_request` answer for an address parameter outside the values its schema lists. */
function checkParameters(channel: ChannelDescriptor, params: Readonly<Record<string, string>>): void {
  const problems = Object.entries(channel.parameters ?? {})
    .filter(([name, values]) => !values.includes(params[name] ?? ''))
    .map(([name, values]) => ({
      in: 'path' as const,
      pointer: `/${name}`,
      message: `must be one of ${values.join(', ')}`,
    }));
  if (problems.length > 0) throw invalidRequest(problems);
}

/** Throws the `invalid_request` answer when the headers its `ws` binding names break its schema. */
function checkHeaders(channel: ChannelDescriptor, headers: IncomingHttpHeaders): void {
  if (channel.headers === undefined) return;
  const named: Record<string, unknown> = {};
  for (const name of channel.headers.names) {
    const value = headers[name.toLowerCase()];
    if (value !== undefined) named[name] = value;
  }
  if (channel.headers.validator(named)) return;
  throw invalidRequest(
    (channel.headers.validator.errors ?? []).map((issue) => ({
      in: 'header' as const,
      pointer: issue.pointer,
      message: issue.message,
    })),
  );
}

/** The query read as its `ws` binding types it and validated; throws the `invalid_request` answer. */
function checkedQuery(channel: ChannelDescriptor, search: string): unknown {
  const query: Record<string, unknown> = parseQuery(search);
  if (channel.query === undefined) return query;
  for (const [name, type] of Object.entries(channel.query.types)) {
    const value = query[name];
    if (typeof value === 'string') query[name] = coerce(value, type);
  }
  if (channel.query.validator(query)) return query;
  throw invalidRequest(
    (channel.query.validator.errors ?? []).map((issue) => ({
      in: 'query' as const,
      pointer: issue.pointer,
      message: issue.message,
    })),
  );
}

/** A query text as the type its schema gives (left as text when it is not one). */
function coerce(text: string, type: QueryMemberType): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'integer' || type === 'number') {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  return text;
}

/** Messages kept for a handler that has not started reading; past it the socket is closed with 1008. */
export const MAX_UNREAD_MESSAGES = 1000;

/** Runs the handler on an upgraded socket; a throw or rejection closes it with 1011. */
function serve(app: FastifyInstance, route: ChannelRoute, request: ChannelRequest<unknown, unknown>, ws: WebSocket) {
  const { channel } = route;
  const listeners: ((message: unknown, key: string) => void)[] = [];
  // Messages nobody has taken yet: replayed to the first listener, or read by the iterator.
  const unread: [unknown, string][] = [];
  const waiting: ((result: IteratorResult<unknown>) => void)[] = [];
  let iterating = false;
  const deliver = (message: unknown, key: string) => {
    for (const listener of listeners) listener(message, key);
    const waiter = waiting.shift();
    if (waiter) waiter({ value: message, done: false });
    else if (iterating || listeners.length === 0) unread.push([message, key]);
    if (unread.length > MAX_UNREAD_MESSAGES) ws.close(1008, 'too many unread messages');
  };
  ws.on('message', (data, binary) => {
    try {
      const text = binary ? '' : String(data);
      const message = parseFrame(channel.name, text);
      const { key } = classify(channel.name, channel.send, message, (v, value) => v(value));
      deliver(message, key);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'invalid message';
      ws.close(INVALID_MESSAGE, Buffer.from(reason).subarray(0, 120).toString());
    }
  });
  ws.once('close', () => {
    for (const waiter of waiting.splice(0)) waiter({ value: undefined, done: true });
  });
  const addListener = (listener: (message: unknown, key: string) => void) => {
    listeners.push(listener);
    if (!iterating) for (const [message, key] of unread.splice(0)) listener(message, key);
  };
  const next = (): Promise<IteratorResult<unknown>> => {
    const [message] = unread.shift() ?? [];
    if (message !== undefined) return Promise.resolve({ value: message, done: false });
    if (ws.readyState !== ws.OPEN) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => waiting.push(resolve));
  };
  const peer: ChannelPeer<unknown, unknown, Record<string, unknown>> = {
    async send(message) {
      // Rejects with `ValidationError` unless one of the messages the server sends takes it.
      classify(channel.name, channel.receive, message, (v, value) => v(value));
      if (ws.readyState !== ws.OPEN) return Promise.resolve(false);
      return new Promise((resolve) => ws.send(JSON.stringify(message), (error) => resolve(error == null)));
    },
    on: (key, listener) => addListener((message, got) => got === key && listener(message)),
    onMessage: addListener,
    onClose: (listener) => ws.once('close', (code, reason) => listener(code, reason.toString())),
    close: (code = 1000, reason = '') => ws.close(code, reason),
    raw: ws,
    [Symbol.asyncIterator]: () => {
      iterating = true;
      return { next };
    },
  };
  const fail = (error: unknown) => {
    app.log.error({ err: error }, 'channel handler failed');
    ws.close(1011, 'internal error');
  };
  try {
    Promise.resolve(route.handler(request as never, peer as never)).catch(fail);
  } catch (error) {
    fail(error);
  }
}
