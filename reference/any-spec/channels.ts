/**
 * The AsyncAPI channels of any spec, served the way `casi serve` serves its operations: a WebSocket channel sends
 * each connection one sample of every message the client receives (the schema's example, else a value built from
 * it) and checks what it receives (1007 on an invalid message); a stream channel writes the same samples and stays
 * open until the client leaves. Credentials are not checked.
 */
import type { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import type { Ir } from '../../generator/ir/model.js';
import { toAjvSchema } from '../../generator/schema/ajv.js';
import { type ChannelParts, channelParts, type MessageSetParts } from '../../generator/schema/channel-parts.js';
import { sampleOf } from '../../generator/schema/sample.js';
import { type ChannelPeer, type ChannelRoute, registerChannelRoutes } from '../../templates/server/channel-routes.js';
import { type ChannelStream, registerStreamRoutes, type StreamRoute } from '../../templates/server/channel-streams.js';
import type { ChannelDescriptor, MessageSet } from '../../templates/shared/channel.js';
import { type CompiledValidate, fromCompiled } from '../../templates/shared/validation.js';

/** Registers every WebSocket and stream channel of `ir` on `app`; returns how many. */
export function registerSpecChannels(app: FastifyInstance, ir: Ir, ajv: Ajv): number {
  const schemas = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const messageSchemas = new Map(ir.messages.map((m) => [m.name, m.schemaName]));
  const validator = (schema: string) =>
    fromCompiled(
      ajv.compile(toAjvSchema({ $ref: `#/components/schemas/${schema}` }) as object) as CompiledValidate,
      schema,
    );
  const samples = (set: MessageSetParts) =>
    Object.values(set.schemas).map((schema) => sampleOf(schemas.get(schema), (name) => schemas.get(name)));
  const sockets: ChannelRoute[] = [];
  const streams: StreamRoute[] = [];
  for (const channel of ir.channels) {
    if (channel.kind === 'unsupported') continue;
    const parts = channelParts(channel, messageSchemas, schemas);
    const descriptor = descriptorOf(parts, validator);
    const out = samples(parts.receive);
    if (channel.kind === 'websocket')
      sockets.push({ channel: descriptor, handler: sendingSamples(out) as ChannelRoute['handler'] });
    else streams.push({ channel: descriptor, handler: streamingSamples(out) as StreamRoute['handler'] });
  }
  if (sockets.length > 0) registerChannelRoutes(app, sockets);
  if (streams.length > 0) registerStreamRoutes(app, streams);
  return sockets.length + streams.length;
}

/** The runtime's descriptor of `parts`, each schema compiled. */
function descriptorOf(
  parts: ChannelParts,
  validator: (schema: string) => MessageSet['validators'][string],
): ChannelDescriptor {
  const set = (s: MessageSetParts): MessageSet => ({
    ...(s.discriminator === undefined ? {} : { discriminator: s.discriminator }),
    validators: Object.fromEntries(Object.entries(s.schemas).map(([message, schema]) => [message, validator(schema)])),
    keys: s.keys,
  });
  const { headers, query, receive, send, ...plain } = parts;
  return {
    ...plain,
    receive: set(receive),
    send: set(send),
    ...(headers === undefined ? {} : { headers: { validator: validator(headers.schema), names: headers.names } }),
    ...(query === undefined ? {} : { query: { validator: validator(query.schema), types: query.types } }),
  };
}

/** Sends each sample once the connection opens; a sample its schema refuses (a generator's limit) is skipped. */
function sendingSamples(samples: readonly unknown[]) {
  return (_request: unknown, peer: ChannelPeer<unknown, unknown, unknown>) => {
    for (const sample of samples) peer.send(sample).catch(() => undefined);
  };
}

/** Writes each sample, then keeps the stream open until the client leaves. */
function streamingSamples(samples: readonly unknown[]) {
  return async (_request: unknown, stream: ChannelStream<unknown>) => {
    for (const sample of samples) await stream.send(sample).catch(() => true);
    if (!stream.signal.aborted)
      await new Promise((resolve) => stream.signal.addEventListener('abort', resolve, { once: true }));
  };
}
