/**
 * The messages of any AsyncAPI 2.6 or 3.x document that do not use this service's event envelopes: each message's
 * payload becomes a named schema (types and validators follow from it), and the document's own component schemas
 * join the OpenAPI ones. https://www.asyncapi.com/docs/reference/specification/v3.0.0#messageObject
 */
import type { SourceDocument } from '../load/index.js';
import { JSON_SCHEMA_FORMATS, resolveLocal } from '../load/refs.js';
import { toPointer } from '../load/source-map.js';
import type { IrMessage, IrWarning, JsonSchema } from './model.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The messages, their payloads named as schemas, and the AsyncAPI component schemas, all sorted by name. */
export interface AsyncApiModel {
  readonly messages: IrMessage[];
  readonly schemas: { name: string; schema: JsonSchema }[];
}

/**
 * Reads every message of `asyncapi` for which `isEvent` is false. `taken` are the schema names in use already: a
 * component schema of the same name keeps the one there (with a warning), a payload takes the next free name.
 */
export function readAsyncApi(
  asyncapi: SourceDocument,
  taken: ReadonlySet<string>,
  isEvent: (message: Obj) => boolean,
  warn: (warning: IrWarning) => void,
): AsyncApiModel {
  const names = new Set(taken);
  const schemas: { name: string; schema: JsonSchema }[] = [];
  for (const [name, schema] of Object.entries(obj(obj(asyncapi.value.components).schemas))) {
    if (names.has(name)) {
      warn({
        document: 'asyncapi',
        pointer: toPointer(['components', 'schemas', name]),
        message: `the schema ${name} is also an OpenAPI component schema; the OpenAPI one is used`,
      });
      continue;
    }
    names.add(name);
    const pointer = toPointer(['components', 'schemas', name]);
    const read = asJsonSchema(schema, undefined, 'schema');
    if (read.note) warn({ document: 'asyncapi', pointer, message: read.note });
    schemas.push({ name, schema: read.schema });
  }
  const messages: IrMessage[] = [];
  for (const found of findMessages(asyncapi)) {
    if (isEvent(found.message)) continue;
    const { schema, note } = payloadOf(found.message);
    if (note) warn({ document: 'asyncapi', pointer: found.pointer, message: note });
    let schemaName = found.name;
    for (let n = 2; names.has(schemaName); n++) schemaName = `${found.name}${n === 2 ? 'Payload' : `Payload${n - 1}`}`;
    names.add(schemaName);
    schemas.push({ name: schemaName, schema });
    messages.push({ name: found.name, schemaName, channels: found.channels, pointer: found.pointer });
  }
  return {
    messages: messages.sort((a, b) => a.name.localeCompare(b.name)),
    schemas: schemas.sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** One message as found: its name, where it is, the channels that carry it. */
interface FoundMessage {
  readonly name: string;
  readonly pointer: string;
  readonly message: Obj;
  channels: string[];
}

/**
 * Every distinct message: those of `components.messages` by their key, then those written inline in channels
 * (3.x `channels.X.messages.Y`, 2.6 `channels.X.publish|subscribe.message`, `oneOf` lists included) by their
 * `messageId`, `name` or place. A `$ref` to a message already found is that message.
 */
function findMessages(asyncapi: SourceDocument): FoundMessage[] {
  const byRef = new Map<string, FoundMessage>();
  const inline: FoundMessage[] = [];
  for (const [key, message] of Object.entries(obj(obj(asyncapi.value.components).messages))) {
    const pointer = toPointer(['components', 'messages', key]);
    byRef.set(`#${pointer}`, { name: key, pointer, message: resolveLocal(asyncapi.value, message), channels: [] });
  }
  const visit = (channel: string, value: unknown, tokens: string[], fallback: string): void => {
    const node = obj(value);
    if (Array.isArray(node.oneOf)) {
      for (const [i, entry] of node.oneOf.entries())
        visit(channel, entry, [...tokens, 'oneOf', String(i)], `${fallback}${i + 1}`);
      return;
    }
    const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
    const known = ref === undefined ? undefined : byRef.get(ref);
    if (known) {
      if (!known.channels.includes(channel)) known.channels.push(channel);
      return;
    }
    const message = resolveLocal(asyncapi.value, node);
    const name = String(message.messageId ?? message.name ?? fallback);
    const found: FoundMessage = { name, pointer: toPointer(tokens), message, channels: [channel] };
    if (ref !== undefined) byRef.set(ref, found);
    else inline.push(found);
  };
  for (const [channel, rawChannel] of Object.entries(obj(asyncapi.value.channels))) {
    const item = resolveLocal(asyncapi.value, rawChannel);
    for (const [key, message] of Object.entries(obj(item.messages)))
      visit(channel, message, ['channels', channel, 'messages', key], key);
    for (const action of ['publish', 'subscribe'] as const) {
      const operation = obj(item[action]);
      if (operation.message !== undefined)
        visit(channel, operation.message, ['channels', channel, action, 'message'], `${channel}${action}`);
    }
  }
  const all = [...new Set([...byRef.values(), ...inline])];
  for (const found of all) found.channels.sort();
  return all;
}

/** The message's payload as a JSON Schema, or any value (with why) when it has none or is in another format. */
function payloadOf(message: Obj): { schema: JsonSchema; note?: string } {
  const payload = message.payload;
  if (payload === undefined) return { schema: {} };
  return asJsonSchema(payload, message.schemaFormat, 'payload');
}

/**
 * A schema as JSON Schema: an AsyncAPI 3 Multi Format Schema object (`{schemaFormat, schema}`) gives its `schema`, a
 * 2.6 message its `payload` beside the message's `schemaFormat`; a format other than JSON Schema gives any value,
 * with why (`what` names the value in that note).
 */
function asJsonSchema(
  value: unknown,
  outerFormat: unknown,
  what: 'payload' | 'schema',
): { schema: JsonSchema; note?: string } {
  const multiFormat = obj(value);
  const format = typeof outerFormat === 'string' ? outerFormat : multiFormat.schemaFormat;
  const schema = typeof multiFormat.schemaFormat === 'string' ? multiFormat.schema : value;
  if (typeof format === 'string' && !JSON_SCHEMA_FORMATS.test(format))
    return {
      schema: {},
      note: `the ${what} is in ${format}, not JSON Schema: it is typed as unknown and not validated`,
    };
  return { schema: (typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : obj(schema)) as JsonSchema };
}
