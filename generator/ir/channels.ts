/**
 * The channels of any AsyncAPI 2.6 or 3.x document that carry its plain messages (not this service's envelopes):
 * their address and parameters, how they are reached (servers, protocols, `ws` bindings) and which messages go which
 * way. Directions are the client's: 3.x `action: send` (the application sends) and 2.6 `subscribe` are what the client
 * receives; 3.x `receive` and 2.6 `publish` are what it sends.
 */
import type { SourceDocument } from '../load/index.js';
import { resolveLocal, valueAt } from '../load/refs.js';
import { toPointer } from '../load/source-map.js';
import { pascalCase } from '../names.js';
import { channelSecurity } from './channel-security.js';
import { discriminate } from './discriminator.js';
import type { IrChannel, IrChannelParameter, IrMessage, IrWarning, JsonSchema } from './model.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Protocols a client is generated for: WebSocket, and HTTP (WebSocket or streaming, by the channel's use). */
const CLIENT_PROTOCOLS = new Set(['ws', 'wss', 'http', 'https']);

/** The channels, sorted by name, and the schemas their `ws` bindings add (query and headers). */
export interface ChannelModel {
  readonly channels: IrChannel[];
  readonly schemas: { name: string; schema: JsonSchema }[];
}

/**
 * Reads the channels of `asyncapi` that carry any of `messages`. `schemaOf` gives a component schema by name (for
 * the discriminator); `taken` are the schema names in use. Warns once per protocol that gets no client.
 */
export function readChannels(
  asyncapi: SourceDocument,
  messages: readonly IrMessage[],
  schemaOf: (name: string) => JsonSchema | undefined,
  taken: ReadonlySet<string>,
  warn: (warning: IrWarning) => void,
): ChannelModel {
  const doc = asyncapi.value;
  const v3 = String(doc.asyncapi ?? '').startsWith('3.');
  const byPointer = new Map(messages.map((m) => [m.pointer, m]));
  const messageAt = (pointer: string): IrMessage | undefined => {
    let current = pointer;
    for (let hops = 0; hops < 8; hops++) {
      const found = byPointer.get(current);
      if (found) return found;
      const ref = obj(valueAt(doc, current)).$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
      current = ref.slice(1);
    }
    return undefined;
  };
  const flows = v3 ? flowsOf3(doc, messageAt) : flowsOf2(doc, messageAt);
  const names = new Set(taken);
  const schemas: { name: string; schema: JsonSchema }[] = [];
  const addSchema = (base: string, schema: unknown): string | undefined => {
    if (schema === undefined) return undefined;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}${n}`;
    names.add(name);
    schemas.push({ name, schema: obj(schema) as JsonSchema });
    return name;
  };
  const channels: IrChannel[] = [];
  const unsupported = new Map<string, string>();
  for (const [name, raw] of Object.entries(obj(doc.channels))) {
    const flow = flows.get(name);
    if (!flow || flow.receive.size + flow.send.size === 0) continue;
    const item = resolveLocal(doc, raw);
    const pointer = toPointer(['channels', name]);
    const address = v3 ? (typeof item.address === 'string' ? item.address : name) : name;
    if (v3 && typeof item.address !== 'string')
      warn({
        document: 'asyncapi',
        pointer,
        message: `the channel ${name} has no address (AsyncAPI 3 reads it as unknown until run time): its client and routes use the channel's name, ${name}, in its place`,
      });
    const servers = serversOf(doc, item, v3);
    const ws = obj(obj(item.bindings).ws);
    const protocols = [...new Set([...servers.map((s) => s.protocol), ...bindingProtocols(doc, item, flow)])].sort();
    const kind = kindOf(protocols, flow.receive.size > 0 && flow.send.size > 0);
    if (kind === 'unsupported') {
      const protocol = protocols.find((p) => !CLIENT_PROTOCOLS.has(p)) ?? 'unspecified';
      if (!unsupported.has(protocol)) unsupported.set(protocol, pointer);
    }
    const code = pascalCase(name) || 'Channel';
    const wsServer = servers.find((s) => CLIENT_PROTOCOLS.has(s.protocol));
    channels.push({
      name,
      address,
      pointer,
      kind,
      protocols,
      url: wsServer?.url,
      method: methodOf(item, flow.method),
      summary: String(item.summary ?? item.description ?? '').trim(),
      parameters: parametersOf(doc, item, address, v3),
      query: kind === 'websocket' ? addSchema(`${code}Query`, ws.query) : undefined,
      headers: kind === 'websocket' ? addSchema(`${code}Headers`, ws.headers) : undefined,
      receive: discriminate([...flow.receive].sort(byName), schemaOf),
      send: discriminate([...flow.send].sort(byName), schemaOf),
      security: channelSecurity(doc, flow.operations, serverNamesOf(doc, item), v3),
      contentType: contentTypeOf(doc, flow),
    });
  }
  for (const [protocol, pointer] of unsupported)
    warn({
      document: 'asyncapi',
      pointer,
      message:
        protocol === 'unspecified'
          ? 'no client and no server are generated for channels whose protocol the document does not give: types and validators only'
          : `no client and no server are generated for ${protocol}: its channels get types and validators only`,
    });
  return { channels: channels.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), schemas };
}

const byName = (a: IrMessage, b: IrMessage) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The messages each channel carries, by the client's direction. */
type Flows = Map<string, { receive: Set<IrMessage>; send: Set<IrMessage>; operations: Obj[]; method?: string }>;

/** The flow of `channel`, with the HTTP method of `operation`'s `http` binding when it gives one. */
function flowOf(flows: Flows, channel: string, operation: Obj = {}) {
  let flow = flows.get(channel);
  if (!flow) {
    flow = { receive: new Set(), send: new Set(), operations: [] };
    flows.set(channel, flow);
  }
  if (!flow.operations.includes(operation)) flow.operations.push(operation);
  const method = obj(obj(operation.bindings).http).method;
  if (typeof method === 'string') flow.method ??= method.toUpperCase();
  return flow;
}

/** 3.x: each operation's `action` and messages (all of its channel's when it lists none). */
function flowsOf3(doc: Obj, messageAt: (pointer: string) => IrMessage | undefined): Flows {
  const flows: Flows = new Map();
  for (const [key, raw] of Object.entries(obj(doc.operations))) {
    const operation = resolveLocal(doc, raw);
    const ref = obj(operation.channel).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/channels/')) continue;
    const channel = decodeToken(ref.slice('#/channels/'.length));
    const direction = operation.action === 'send' ? 'receive' : operation.action === 'receive' ? 'send' : undefined;
    if (direction === undefined) continue;
    const refs = Array.isArray(operation.messages)
      ? operation.messages.map((m, i) => {
          const target = obj(m).$ref;
          return typeof target === 'string' ? target.slice(1) : toPointer(['operations', key, 'messages', String(i)]);
        })
      : Object.keys(obj(resolveLocal(doc, obj(doc.channels)[channel]).messages)).map((m) =>
          toPointer(['channels', channel, 'messages', m]),
        );
    for (const pointer of refs) {
      const message = messageAt(pointer);
      if (message) flowOf(flows, channel, operation)[direction].add(message);
    }
  }
  return flows;
}

/** 2.6: `subscribe` is received by the client, `publish` sent; a `oneOf` lists several messages. */
function flowsOf2(doc: Obj, messageAt: (pointer: string) => IrMessage | undefined): Flows {
  const flows: Flows = new Map();
  for (const [channel, raw] of Object.entries(obj(doc.channels))) {
    const item = resolveLocal(doc, raw);
    for (const [action, direction] of [
      ['subscribe', 'receive'],
      ['publish', 'send'],
    ] as const) {
      const message = obj(obj(item[action]).message);
      if (Object.keys(message).length === 0) continue;
      const base = ['channels', channel, action, 'message'];
      const pointers = Array.isArray(message.oneOf)
        ? message.oneOf.map((_, i) => toPointer([...base, 'oneOf', String(i)]))
        : [toPointer(base)];
      for (const pointer of pointers) {
        const found = messageAt(pointer);
        if (found) flowOf(flows, channel, obj(item[action]))[direction].add(found);
      }
    }
  }
  return flows;
}

/**
 * `websocket` with a `ws`/`wss` protocol or binding; on HTTP alone, `websocket` when the channel carries messages
 * both ways (a response stream cannot) and `stream` (SSE or chunked HTTP) when one way; else `unsupported`.
 */
function kindOf(protocols: readonly string[], bothWays: boolean): IrChannel['kind'] {
  if (protocols.includes('ws') || protocols.includes('wss')) return 'websocket';
  if (protocols.length === 0 || !protocols.every((p) => CLIENT_PROTOCOLS.has(p))) return 'unsupported';
  return bothWays ? 'websocket' : 'stream';
}

/** The protocols named by bindings of the channel, its operations and its messages (`ws`, `mqtt`, `http`, …). */
function bindingProtocols(doc: Obj, item: Obj, flow: { receive: Set<IrMessage>; send: Set<IrMessage> }): string[] {
  const found = Object.keys(obj(item.bindings));
  for (const action of ['publish', 'subscribe']) found.push(...Object.keys(obj(obj(item[action]).bindings)));
  for (const message of [...flow.receive, ...flow.send])
    found.push(...Object.keys(obj(obj(valueAt(doc, message.pointer)).bindings)));
  return found;
}

/** The method of the channel's `ws` or `http` binding, else of its operations' `http` bindings. */
function methodOf(item: Obj, fromOperations: string | undefined): string | undefined {
  const bindings = obj(item.bindings);
  const method = obj(bindings.ws).method ?? obj(bindings.http).method;
  return typeof method === 'string' ? method.toUpperCase() : fromOperations;
}

/** The names of the servers the channel is on (its `servers`, else all). */
function serverNamesOf(doc: Obj, item: Obj): string[] {
  const all = obj(doc.servers);
  const names = Array.isArray(item.servers)
    ? item.servers.map((s) =>
        typeof s === 'string' ? s : decodeToken(String(obj(s).$ref ?? '').replace(/^#\/servers\//, '')),
      )
    : Object.keys(all);
  return names.filter((name) => all[name] !== undefined);
}

/** The content type of the channel's messages (the first that names one), else the document's default. */
function contentTypeOf(doc: Obj, flow: { receive: Set<IrMessage>; send: Set<IrMessage> }): string | undefined {
  for (const message of [...flow.receive, ...flow.send]) {
    const type = resolveLocal(doc, valueAt(doc, message.pointer)).contentType;
    if (typeof type === 'string') return type;
  }
  return typeof doc.defaultContentType === 'string' ? doc.defaultContentType : undefined;
}

/** The servers the channel is on, with their protocol and URL. */
function serversOf(doc: Obj, item: Obj, v3: boolean): { protocol: string; url: string }[] {
  const all = obj(doc.servers);
  return serverNamesOf(doc, item).map((name) => {
    const server = resolveLocal(doc, all[name]);
    const protocol = String(server.protocol ?? '').toLowerCase();
    const written = v3 ? `${server.host ?? ''}${server.pathname ?? ''}` : String(server.url ?? '');
    const url = withVariables(written.includes('://') ? written : `${protocol}://${written}`, obj(server.variables));
    return { protocol, url };
  });
}

/** A server URL with each `{variable}` replaced by its default (an unknown one is left as written). */
function withVariables(url: string, variables: Obj): string {
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const fallback = obj(variables[name]).default;
    return typeof fallback === 'string' ? fallback : whole;
  });
}

/** The address parameters in address order: 3.x gives `enum`/`default` on the parameter, 2.6 a `schema`. */
function parametersOf(doc: Obj, item: Obj, address: string, v3: boolean): IrChannelParameter[] {
  const declared = obj(item.parameters);
  return [...address.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => {
    const parameter = resolveLocal(doc, declared[name]);
    const schema = v3
      ? { type: 'string', ...(Array.isArray(parameter.enum) ? { enum: parameter.enum } : {}) }
      : { type: 'string', ...resolveLocal(doc, parameter.schema) };
    return { name, schema: schema as JsonSchema, description: String(parameter.description ?? '').trim() };
  });
}

function decodeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}
