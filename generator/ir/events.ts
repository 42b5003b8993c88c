/** Reads the event types: AsyncAPI messages joined with the OpenAPI payload schemas they reference. */
import { InputError } from '../diagnostics.js';
import { type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import type { IrEvent, JsonSchema } from './model.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Payload schema names listed by a discriminated union schema (`ServerEventPayload`, `ClientEventPayload`). */
export function unionMembers(openapi: SourceDocument, unionName: string): string[] {
  const union = obj(valueAt(openapi.value, `/components/schemas/${unionName}`));
  const members = Array.isArray(union.oneOf) ? union.oneOf : [];
  return members.map((m) => schemaRefName(obj(m).$ref)).filter((n): n is string => n !== undefined);
}

/** The `type` tag a payload schema fixes with `const` (or a one-value `enum`). */
export function payloadTypeTag(openapi: SourceDocument, payloadSchema: string): string | undefined {
  return fixedTag(obj(valueAt(openapi.value, `/components/schemas/${payloadSchema}`)), 'type');
}

/** The string a schema fixes its member `property` to, with `const` or a one-value `enum`. */
export function fixedTag(schema: Record<string, unknown>, property: string): string | undefined {
  const member = obj(obj(schema.properties)[property]);
  if (typeof member.const === 'string') return member.const;
  return Array.isArray(member.enum) && member.enum.length === 1 && typeof member.enum[0] === 'string'
    ? member.enum[0]
    : undefined;
}

/** One AsyncAPI message as written: its envelope and payload schema names, read from `allOf`. */
export interface RawMessage {
  readonly name: string;
  readonly envelope?: string;
  readonly payload?: string;
  readonly message: Obj;
}

/** Every message of `components.messages`, with the schema names its payload references. */
export function readMessages(asyncapi: SourceDocument): RawMessage[] {
  const messages = obj(valueAt(asyncapi.value, '/components/messages'));
  return Object.entries(messages).map(([name, value]) => {
    const message = obj(value);
    const parts = payloadParts(message);
    const envelope = parts.map((p) => schemaRefName(p.$ref)).find((n) => n !== undefined);
    const payload = parts.map((p) => schemaRefName(obj(obj(p.properties).payload).$ref)).find((n) => n !== undefined);
    return { name, envelope, payload, message };
  });
}

/** The parts of a message's payload schema: the members of its `allOf`, or the schema itself. */
function payloadParts(message: Obj): Obj[] {
  const schema = obj(obj(message.payload).schema ?? message.payload);
  return Array.isArray(schema.allOf) ? schema.allOf.map(obj) : [schema];
}

/** Whether a message extends one of this service's event envelopes (`ServerEvent`, `ClientEvent`). */
export function isEnvelopeMessage(message: Obj): boolean {
  return payloadParts(message).some((p) => ENVELOPES.includes(schemaRefName(p.$ref) ?? ''));
}

const ENVELOPES = ['ServerEvent', 'ClientEvent'];

/** Channel names that list each message (by `#/components/messages/<name>`). */
function channelsByMessage(asyncapi: SourceDocument): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const [channel, value] of Object.entries(obj(valueAt(asyncapi.value, '/channels')))) {
    for (const ref of Object.values(obj(obj(value).messages))) {
      const name = /#\/components\/messages\/([^/]+)$/.exec(String(obj(ref).$ref))?.[1];
      if (name) result.set(name, [...(result.get(name) ?? []), channel]);
    }
  }
  return result;
}

/** Builds the sorted event list; assumes the documents passed the consistency check. */
export function buildEvents(openapi: SourceDocument, asyncapi: SourceDocument): IrEvent[] {
  const channels = channelsByMessage(asyncapi);
  return readMessages(asyncapi)
    .filter((raw) => isEnvelopeMessage(raw.message))
    .map((raw): IrEvent => {
      const { name, envelope, payload, message } = raw;
      if (!envelope || !payload)
        throw new InputError(`${asyncapi.file}: message ${name} has no envelope/payload reference`);
      const type = payloadTypeTag(openapi, payload);
      if (!type) throw new InputError(`${openapi.file}: schema ${payload} has no constant \`type\``);
      const examples = Array.isArray(message.examples) ? message.examples.map((e) => obj(e).payload) : [];
      return {
        name,
        type,
        payloadSchema: payload,
        envelopeSchema: envelope,
        direction: envelope === 'ClientEvent' ? 'client' : 'server',
        channels: [...(channels.get(name) ?? [])].sort(),
        experimental: message['x-casi-experimental'] === true,
        terminal: message['x-casi-terminal'] === true,
        summary: typeof message.summary === 'string' ? message.summary : '',
        examples,
      };
    })
    .sort((a, b) => a.direction.localeCompare(b.direction) || a.type.localeCompare(b.type));
}

/** The schema of a message's full envelope: the envelope with the payload narrowed to the message's payload. */
export function eventSchema(event: IrEvent): JsonSchema {
  return {
    allOf: [
      { $ref: `#/components/schemas/${event.envelopeSchema}` },
      { type: 'object', properties: { payload: { $ref: `#/components/schemas/${event.payloadSchema}` } } },
    ],
  };
}
