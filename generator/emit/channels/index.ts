/**
 * Emits the channels of plain AsyncAPI messages: `channels.gen.ts` (per channel, the message unions, the messages by
 * key, its descriptor and `connect<Channel>(options)` or `stream<Channel>(options)`) and `channel-routes.gen.ts`
 * (`registerChannels(app, handlers)` on Fastify: WebSocket and HTTP stream routes). Channels of other protocols get their types and a note saying that
 * no client is generated for them. Nothing is emitted for a document without such channels.
 */
import type { StatementStructures } from 'ts-morph';
import type { Ir, IrChannel, IrChannelMessages } from '../../ir/model.js';
import { camelCase, pascalCase, schemaCodeNames } from '../../names.js';
import { type ChannelParts, channelParts, type MessageSetParts } from '../../schema/channel-parts.js';
import {
  docText,
  emitTypeScript,
  literal,
  propertyName,
  StructureKind,
  type TypeScriptFile,
  VariableDeclarationKind,
} from '../shared/ts.js';
import { validatorName } from '../validators/index.js';

const CLIENT_RUNTIME = './runtime/client/channel-socket.js';
const SERVER_RUNTIME = './runtime/server/channel-routes.js';
const STREAM_RUNTIME = './runtime/client/channel-stream.js';
const STREAM_SERVER_RUNTIME = './runtime/server/channel-streams.js';
const SHARED_RUNTIME = './runtime/shared/channel.js';

/** `import { values } from module` (when there are any) and `import type { types } from module`. */
function runtimeImports(module: string, values: string[], types: string[]): StatementStructures[] {
  return [
    ...(values.length > 0
      ? [{ kind: StructureKind.ImportDeclaration, moduleSpecifier: module, namedImports: values } as const]
      : []),
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: module, isTypeOnly: true, namedImports: types },
  ];
}

/** A channel with the names its code uses. */
export interface Named {
  readonly channel: IrChannel;
  /** `Root`, `V1MarketdataSymbol`: the prefix of its types. */
  readonly type: string;
  /** `root`, `v1MarketdataSymbol`: its descriptor and handler names. */
  readonly value: string;
}

/** Builds both files, or none when the IR has no channels. */
export function emitChannels(ir: Ir): TypeScriptFile[] {
  if (ir.channels.length === 0) return [];
  const named = namesOf(ir.channels);
  const code = schemaCodeNames(ir);
  const messageSchemas = new Map(ir.messages.map((m) => [m.name, m.schemaName]));
  const schemaOf = new Map(ir.messages.map((m) => [m.name, code.get(m.schemaName) ?? m.schemaName]));
  const served = named.filter((n) => n.channel.kind !== 'unsupported');
  const schemas = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const channelPartsOf = (channel: IrChannel) => channelParts(channel, messageSchemas, schemas);
  const files = [emitTypeScript('src/channels.gen.ts', clientStatements(named, schemaOf, code, channelPartsOf))];
  if (served.length > 0) files.push(emitTypeScript('src/channel-routes.gen.ts', serverStatements(served)));
  return files;
}

/** Stable, distinct names for the channels (in name order). */
export function namesOf(channels: readonly IrChannel[]): Named[] {
  const taken = new Set<string>();
  return channels.map((channel) => {
    const base = pascalCase(channel.name) || 'Channel';
    let type = /^[0-9]/.test(base) ? `_${base}` : base;
    for (let n = 2; taken.has(type); n++) type = `${base}${n}`;
    taken.add(type);
    return { channel, type, value: camelCase(type) || type };
  });
}

function clientStatements(
  named: readonly Named[],
  schemaOf: ReadonlyMap<string, string>,
  code: ReadonlyMap<string, string>,
  partsOf: (channel: IrChannel) => ChannelParts,
): StatementStructures[] {
  const kinds = new Set(named.map((n) => n.channel.kind));
  const statements: StatementStructures[] = [
    ...(kinds.has('websocket')
      ? runtimeImports(CLIENT_RUNTIME, ['openChannel'], ['ChannelConnection', 'ChannelOptions'])
      : []),
    ...(kinds.has('stream') ? runtimeImports(STREAM_RUNTIME, ['readChannel'], ['StreamChannelOptions']) : []),
    ...(kinds.has('websocket') || kinds.has('stream') ? runtimeImports(SHARED_RUNTIME, [], ['ChannelDescriptor']) : []),
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: './types.gen.js',
      namespaceImport: 'types',
      isTypeOnly: true,
    },
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: './validators.gen.js', namespaceImport: 'validators' },
    {
      kind: StructureKind.TypeAlias,
      name: 'Narrow',
      typeParameters: ['T', 'U'],
      docs: ['The members of `T` that fit `U`, or `T` when none does (a payload type the key cannot narrow).'],
      type: '[Extract<T, U>] extends [never] ? T : Extract<T, U>',
    },
  ];
  for (const n of named) statements.push(...channelStatements(n, schemaOf, code, partsOf));
  return statements;
}

/** The types of one channel, and its descriptor and `connect` for a WebSocket channel. */
function channelStatements(
  { channel, type, value }: Named,
  schemaOf: ReadonlyMap<string, string>,
  code: ReadonlyMap<string, string>,
  partsOf: (channel: IrChannel) => ChannelParts,
): StatementStructures[] {
  const union = (set: IrChannelMessages) => set.messages.map((m) => `types.${schemaOf.get(m)}`).join(' | ') || 'never';
  const note = noteOf(channel);
  const statements: StatementStructures[] = [
    alias(`${type}Received`, union(channel.receive), `What the client receives on ${channel.address}.${note}`),
    alias(`${type}Sent`, union(channel.send), `What the client sends on ${channel.address}.`),
    byKey(
      `${type}ReceivedByKey`,
      channel.receive,
      schemaOf,
      `The messages the client receives, ${keyText(channel.receive)}.`,
    ),
    byKey(`${type}SentByKey`, channel.send, schemaOf, `The messages the client sends, ${keyText(channel.send)}.`),
  ];
  if (channel.kind === 'unsupported') return statements;
  const params = channel.parameters.length
    ? `{ ${channel.parameters.map((p) => `${propertyName(p.name)}: ${parameterType(p.schema)}`).join('; ')} }`
    : 'Record<string, never>';
  const query = channel.query === undefined ? 'Record<string, never>' : `types.${code.get(channel.query)}`;
  const connection = `ChannelConnection<${type}Received, ${type}Sent, ${type}ReceivedByKey>`;
  statements.push(
    alias(`${type}Params`, params, `The parameters of the address ${channel.address}.`),
    alias(`${type}Query`, query, 'The query of its request (its `ws` binding).'),
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [docText(`The channel ${channel.name} as the client and the server runtime read it.`)],
      declarations: [
        {
          name: `${value}Channel`,
          type: 'ChannelDescriptor',
          initializer: descriptor(partsOf(channel), code),
        },
      ],
    },
    channel.kind === 'websocket'
      ? {
          kind: StructureKind.Function,
          isExported: true,
          name: `connect${type}`,
          docs: [docText(`Opens a WebSocket on ${channel.address}${channel.summary ? `: ${channel.summary}` : '.'}`)],
          parameters: [{ name: 'options', type: `ChannelOptions<${type}Params, ${type}Query>` }],
          returnType: `Promise<${connection}>`,
          statements: [`return openChannel(${value}Channel, options);`],
        }
      : {
          kind: StructureKind.Function,
          isExported: true,
          name: `stream${type}`,
          docs: [
            docText(`Reads the HTTP stream of ${channel.address}${channel.summary ? `: ${channel.summary}` : '.'}`),
          ],
          parameters: [{ name: 'options', type: `StreamChannelOptions<${type}Params, ${type}Query>` }],
          returnType: `AsyncGenerator<${type}Received, void, undefined>`,
          statements: [`return readChannel(${value}Channel, options);`],
        },
  );
  return statements;
}

/** Why a channel gets no client, for its doc comment. */
function noteOf(channel: IrChannel): string {
  if (channel.kind === 'unsupported')
    return ` No client is generated for ${channel.protocols.join(', ') || 'an unnamed protocol'}: types and validators only.`;
  return '';
}

function keyText(set: IrChannelMessages): string {
  return set.discriminator === undefined ? 'by message name' : `by their \`${set.discriminator}\``;
}

function alias(name: string, type: string, doc: string): StatementStructures {
  return { kind: StructureKind.TypeAlias, isExported: true, name, type, docs: [docText(doc)] };
}

/** `{ key: message type narrowed to the key }` of one direction. */
function byKey(name: string, set: IrChannelMessages, schemaOf: ReadonlyMap<string, string>, doc: string) {
  const members = Object.entries(set.keys).map(([key, messages]) => {
    const union = messages.map((m) => `types.${schemaOf.get(m)}`).join(' | ');
    const narrowed =
      set.discriminator === undefined
        ? union
        : `Narrow<${union}, { ${propertyName(set.discriminator)}?: ${literal(key)} }>`;
    return `  ${propertyName(key)}: ${narrowed};`;
  });
  return alias(name, members.length ? `{\n${members.join('\n')}\n}` : 'Record<string, never>', doc);
}

/** A parameter's type: the union of its enum, else `string`. */
function parameterType(schema: Record<string, unknown>): string {
  const values = Array.isArray(schema.enum) ? schema.enum.filter((v) => typeof v === 'string') : [];
  return values.length ? values.map((v) => literal(v)).join(' | ') : 'string';
}

/** The descriptor literal: `channelParts` with each schema name turned into its validator. */
function descriptor(parts: ChannelParts, code: ReadonlyMap<string, string>) {
  const validator = (schema: string) => `validators.${validatorName(code.get(schema) ?? schema)}`;
  const set = (s: MessageSetParts) => {
    const validators = Object.entries(s.schemas).map(([m, schema]) => `${propertyName(m)}: ${validator(schema)}`);
    const keys = Object.entries(s.keys).map(([k, ms]) => `${propertyName(k)}: [${ms.map(literal).join(', ')}]`);
    const discriminator = s.discriminator === undefined ? '' : `discriminator: ${literal(s.discriminator)}, `;
    return `{ ${discriminator}validators: { ${validators.join(', ')} }, keys: { ${keys.join(', ')} } }`;
  };
  const list = (values: readonly string[]) => `[${values.map(literal).join(', ')}]`;
  const lines = [
    `name: ${literal(parts.name)},`,
    `address: ${literal(parts.address)},`,
    ...(parts.url === undefined ? [] : [`url: ${literal(parts.url)},`]),
    ...(parts.method === undefined ? [] : [`method: ${literal(parts.method)},`]),
    ...(parts.contentType === undefined ? [] : [`contentType: ${literal(parts.contentType)},`]),
    ...(parts.security === undefined ? [] : [`security: ${JSON.stringify(parts.security)},`]),
    `receive: ${set(parts.receive)},`,
    `send: ${set(parts.send)},`,
  ];
  if (parts.parameters !== undefined) {
    const enums = Object.entries(parts.parameters).map(([name, values]) => `${propertyName(name)}: ${list(values)}`);
    lines.push(`parameters: { ${enums.join(', ')} },`);
  }
  if (parts.headers !== undefined)
    lines.push(`headers: { validator: ${validator(parts.headers.schema)}, names: ${list(parts.headers.names)} },`);
  if (parts.query !== undefined) {
    const types = Object.entries(parts.query.types).map(
      ([member, type]) => `${propertyName(member)}: ${literal(type)}`,
    );
    lines.push(`query: { validator: ${validator(parts.query.schema)}, types: { ${types.join(', ')} } },`);
  }
  return `{\n${lines.map((l) => `  ${l}`).join('\n')}\n}`;
}

/** `registerChannels`: WebSocket routes of the WebSocket channels, HTTP stream routes of the stream channels. */
function serverStatements(served: readonly Named[]): StatementStructures[] {
  const sockets = served.filter((n) => n.channel.kind === 'websocket');
  const streams = served.filter((n) => n.channel.kind === 'stream');
  const handler = ({ type, channel }: Named) =>
    channel.kind === 'stream'
      ? `StreamChannelHandler<channels.${type}Params, channels.${type}Query, channels.${type}Received>`
      : `ChannelHandler<channels.${type}Params, channels.${type}Query, channels.${type}Received, channels.${type}Sent, channels.${type}SentByKey>`;
  const push = (list: string, n: Named) =>
    `if (handlers.${n.value}) ${list}.push({ channel: channels.${n.value}Channel, handler: handlers.${n.value} });`;
  return [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: 'fastify',
      namedImports: ['FastifyInstance'],
      isTypeOnly: true,
    },
    ...runtimeImports(SERVER_RUNTIME, sockets.length > 0 ? ['registerChannelRoutes'] : [], [
      ...(sockets.length > 0 ? ['ChannelHandler', 'ChannelRoute'] : []),
      'ChannelRouteOptions',
    ]),
    ...(streams.length > 0
      ? runtimeImports(STREAM_SERVER_RUNTIME, ['registerStreamRoutes'], ['StreamChannelHandler', 'StreamRoute'])
      : []),
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: './channels.gen.js', namespaceImport: 'channels' },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: 'ChannelHandlers',
      docs: ['A handler per channel; a channel without one is not served.'],
      properties: served.map((n) => ({ name: n.value, hasQuestionToken: true, type: handler(n) })),
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'registerChannels',
      docs: [
        "Serves the channels that have a handler on `app`: WebSocket channels on its server's upgrades, stream channels as HTTP routes.",
      ],
      parameters: [
        { name: 'app', type: 'FastifyInstance' },
        { name: 'handlers', type: 'ChannelHandlers' },
        { name: 'options', type: 'ChannelRouteOptions', initializer: '{}' },
      ],
      returnType: 'void',
      statements: [
        ...(sockets.length > 0
          ? [
              'const routes: ChannelRoute[] = [];',
              ...sockets.map((n) => push('routes', n)),
              'registerChannelRoutes(app, routes, options);',
            ]
          : []),
        ...(streams.length > 0
          ? [
              'const streams: StreamRoute[] = [];',
              ...streams.map((n) => push('streams', n)),
              'registerStreamRoutes(app, streams, options);',
            ]
          : []),
      ],
    },
  ];
}
