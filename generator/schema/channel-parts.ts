/**
 * A channel's descriptor as plain data, each validator given as the component schema it checks: the generated
 * `channels.gen.ts` prints it with validator names, and `casi serve` compiles the schemas, so both read a channel alike.
 */
import type { QueryMemberType } from '../../templates/shared/channel.js';
import type { IrChannel, IrChannelMessages, JsonSchema } from '../ir/model.js';

/** One direction's messages: the schema of each message by name, and the messages of each key. */
export interface MessageSetParts {
  readonly discriminator?: string;
  readonly schemas: Readonly<Record<string, string>>;
  readonly keys: Readonly<Record<string, readonly string[]>>;
}

/** `ChannelDescriptor` with schema names where it holds validators. */
export interface ChannelParts {
  readonly name: string;
  readonly address: string;
  readonly url?: string;
  readonly method?: string;
  readonly contentType?: string;
  readonly security?: IrChannel['security'];
  readonly receive: MessageSetParts;
  readonly send: MessageSetParts;
  readonly parameters?: Readonly<Record<string, readonly string[]>>;
  readonly headers?: { readonly schema: string; readonly names: readonly string[] };
  readonly query?: { readonly schema: string; readonly types: Readonly<Record<string, QueryMemberType>> };
}

/** The parts of `channel`; `messageSchemas` gives each message's component schema. */
export function channelParts(
  channel: IrChannel,
  messageSchemas: ReadonlyMap<string, string>,
  schemas: ReadonlyMap<string, JsonSchema>,
): ChannelParts {
  const set = (s: IrChannelMessages): MessageSetParts => ({
    ...(s.discriminator === undefined ? {} : { discriminator: s.discriminator }),
    schemas: Object.fromEntries(s.messages.map((m) => [m, messageSchemas.get(m) ?? m])),
    keys: s.keys,
  });
  const enums = channel.parameters
    .map((p): [string, string[]] => [
      p.name,
      Array.isArray(p.schema.enum) ? p.schema.enum.filter((v): v is string => typeof v === 'string') : [],
    ])
    .filter(([, values]) => values.length > 0);
  const stream = channel.kind === 'stream';
  return {
    name: channel.name,
    address: channel.address,
    ...(channel.url === undefined ? {} : { url: channel.url }),
    ...(stream && channel.method !== undefined ? { method: channel.method } : {}),
    ...(stream && channel.contentType !== undefined ? { contentType: channel.contentType } : {}),
    ...(Object.keys(channel.security).length > 0 ? { security: channel.security } : {}),
    receive: set(channel.receive),
    send: set(channel.send),
    ...(enums.length > 0 ? { parameters: Object.fromEntries(enums) } : {}),
    ...(channel.headers === undefined
      ? {}
      : {
          headers: {
            schema: channel.headers,
            names: Object.keys((schemas.get(channel.headers)?.properties ?? {}) as object),
          },
        }),
    ...(channel.query === undefined
      ? {}
      : { query: { schema: channel.query, types: queryTypes(channel.query, schemas) } }),
  };
}

/** The query members typed boolean, integer or number, with that type. */
function queryTypes(name: string, schemas: ReadonlyMap<string, JsonSchema>): Record<string, QueryMemberType> {
  const properties = (schemas.get(name)?.properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => ['boolean', 'integer', 'number'].includes(String(schema?.type)))
      .map(([member, schema]) => [member, String(schema.type) as QueryMemberType]),
  );
}
