/**
 * HTTP routes of one-way AsyncAPI channels served over http(s): the handler writes messages, framed as Server-Sent
 * Events when the channel's content type is `text/event-stream`, else as JSON lines, until it settles or the client
 * leaves. The request passes the same authentication, parameter, header and query checks as a channel's handshake.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChannelDescriptor } from '../shared/channel.js';
import { classify } from '../shared/channel.js';
import { admitChannel, type ChannelRequest, type ChannelRouteOptions } from './channel-routes.js';
import { toErrorAnswer } from './error-handler.js';
import { toFastifyPath } from './path.js';
import { formatMessage } from './sse-format.js';

/** The messages a stream channel's handler writes; `Out` is what the client receives. */
export interface ChannelStream<Out> {
  /** Writes `message` (checked first when responses are validated); resolves to false once the client has left. */
  send(message: Out): Promise<boolean>;
  /** Aborts when the client leaves. */
  readonly signal: AbortSignal;
}

/** Serves one request of a stream channel; the stream ends when it settles. */
export type StreamChannelHandler<Params, Query, Out> = (
  request: ChannelRequest<Params, Query>,
  stream: ChannelStream<Out>,
) => void | Promise<void>;

/** A stream channel with the handler that serves it. */
export interface StreamRoute {
  readonly channel: ChannelDescriptor;
  /** Any stream channel's handler: the generated `registerChannels` gives each its own types. */
  readonly handler: (request: never, stream: never) => void | Promise<void>;
}

/** Adds a route per stream channel, at its address with its method (default GET). */
export function registerStreamRoutes(
  app: FastifyInstance,
  routes: readonly StreamRoute[],
  options: ChannelRouteOptions = {},
): void {
  for (const route of routes) {
    const { channel } = route;
    const sse = /^text\/event-stream/i.test(channel.contentType ?? '');
    app.route({
      method: channel.method ?? 'GET',
      url: toFastifyPath(channel.address),
      handler: async (request, reply) => {
        let admitted: ChannelRequest<unknown, unknown>;
        try {
          const params = request.params as Record<string, string>;
          admitted = await admitChannel(channel, request.raw, params, options, request.log);
        } catch (error) {
          const answer = toErrorAnswer(error, options.maxPayload ?? 1 << 20);
          if (answer.internal) request.log.error({ err: error }, 'internal error before a channel stream');
          return reply.code(answer.error.status).headers(answer.error.headers).send(answer.error.body);
        }
        await stream(reply, route, admitted, sse, options.validateResponses === true);
        return reply;
      },
    });
  }
}

/** Opens the answer, runs the handler on it and ends it when the handler settles (a failure is logged). */
async function stream(
  reply: FastifyReply,
  route: StreamRoute,
  request: ChannelRequest<unknown, unknown>,
  sse: boolean,
  validate: boolean,
): Promise<void> {
  const { channel } = route;
  const left = new AbortController();
  const raw = reply.raw;
  reply.hijack();
  raw.on('close', () => left.abort());
  raw.writeHead(200, {
    'content-type': sse ? 'text/event-stream' : (channel.contentType ?? 'application/x-ndjson'),
    'cache-control': 'no-cache',
  });
  raw.flushHeaders();
  const writer: ChannelStream<unknown> = {
    async send(message) {
      // Rejects with `ValidationError` unless one of the messages the client receives takes it.
      if (validate) classify(channel.name, channel.receive, message, (v, value) => v(value));
      if (left.signal.aborted || raw.writableEnded) return false;
      const data = JSON.stringify(message);
      const text = sse ? formatMessage({ data }) : `${data}\n`;
      if (raw.write(text)) return true;
      await new Promise((resolve) => {
        raw.once('drain', resolve);
        left.signal.addEventListener('abort', resolve, { once: true });
      });
      return !left.signal.aborted;
    },
    signal: left.signal,
  };
  try {
    await route.handler(request as never, writer as never);
  } catch (error) {
    reply.log.error({ err: error }, 'channel stream handler failed');
  } finally {
    raw.end();
  }
}
