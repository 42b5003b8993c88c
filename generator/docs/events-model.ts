/**
 * The events reference as data: the IR's events with their payload fields, plus what only the AsyncAPI document
 * says (overview and ordering rules, channels, operations, message titles and `x-casi-inferred` marks).
 */
import type { Ir, IrEvent } from '../ir/model.js';
import { type SourceDocument, valueAt } from '../load/index.js';
import type { CodeSample } from './code-samples.js';
import { eventSamples } from './event-samples.js';
import { type FieldRow, fieldRows, schemaIndex } from './fields.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const inferred = (v: unknown): boolean => obj(v)['x-casi-inferred'] === true;

/** One operation of the AsyncAPI document (what the service sends or receives on a channel). */
export interface DocOperation {
  readonly id: string;
  readonly action: 'send' | 'receive';
  readonly title: string;
  readonly summary: string;
  readonly description: string;
  readonly inferred: boolean;
}

/** One channel: the SSE stream, the WebSocket session or the webhook. */
export interface DocChannel {
  readonly id: string;
  readonly title: string;
  readonly address: string;
  readonly description: string;
  /** The channel, or its server, fills a gap of the source. */
  readonly inferred: boolean;
  readonly protocol: string;
  /** Event types it carries, in the IR's order. */
  readonly eventTypes: readonly string[];
  readonly operations: readonly DocOperation[];
}

/** One event type with everything the page shows about it. */
export interface DocEvent {
  readonly event: IrEvent;
  readonly title: string;
  /** The payload schema's own description. */
  readonly description: string;
  /** The message or its payload schema fills a gap of the source. */
  readonly inferred: boolean;
  readonly fields: readonly FieldRow[];
  /** Titles of the channels that carry it. */
  readonly channelTitles: readonly string[];
  /** TypeScript that receives it (a server event) or sends it (a client event) with the generated client. */
  readonly samples: readonly CodeSample[];
}

/** An envelope (`ServerEvent`, `ClientEvent`) and its fields, `payload` left out. */
export interface DocEnvelope {
  readonly name: string;
  readonly description: string;
  readonly fields: readonly FieldRow[];
}

/** The whole events reference. */
export interface EventsDoc {
  readonly title: string;
  readonly version: string;
  readonly serviceVersion: string;
  /** The AsyncAPI `info.description` (Markdown): transports, ordering rules, rebuilding messages, tool calls. */
  readonly overview: string;
  readonly channels: readonly DocChannel[];
  readonly envelopes: readonly DocEnvelope[];
  readonly events: readonly DocEvent[];
}

/** Builds the events reference from the IR and the loaded AsyncAPI document. */
export function buildEventsDoc(ir: Ir, asyncapi: SourceDocument): EventsDoc {
  const doc = asyncapi.value;
  const schemas = schemaIndex(ir.schemas);
  const info = obj(valueAt(doc, '/info'));
  const channels = buildChannels(doc, ir.events);
  const titleOf = new Map(channels.map((c) => [c.id, c.title]));
  const addresses = new Map(channels.map((c) => [c.id, c.address]));
  const envelopeNames = [...new Set(ir.events.map((e) => e.envelopeSchema))].sort().reverse();
  return {
    title: str(info.title) || ir.title,
    version: str(info.version) || ir.version,
    serviceVersion: ir.serviceVersion ?? '',
    overview: str(info.description),
    channels,
    envelopes: envelopeNames.map((name) => {
      const schema = schemas.get(name) ?? {};
      return { name, description: str(schema.description), fields: fieldRows(schema, schemas, ['payload']) };
    }),
    events: ir.events.map((event) => {
      const message = obj(valueAt(doc, `/components/messages/${event.name}`));
      const payload = schemas.get(event.payloadSchema) ?? {};
      return {
        event,
        title: str(message.title) || event.type,
        description: str(payload.description),
        inferred: inferred(message) || inferred(payload),
        fields: fieldRows(payload, schemas),
        channelTitles: event.channels.map((id) => titleOf.get(id) ?? id),
        samples: eventSamples(ir, event, addresses),
      };
    }),
  };
}

function buildChannels(doc: Obj, events: readonly IrEvent[]): DocChannel[] {
  const servers = obj(doc.servers);
  const operations = Object.entries(obj(doc.operations)).map(([id, value]) => ({ id, op: obj(value) }));
  return Object.entries(obj(doc.channels)).map(([id, value]) => {
    const channel = obj(value);
    const serverRefs = Array.isArray(channel.servers) ? channel.servers.map((s) => str(obj(s).$ref)) : [];
    const channelServers = serverRefs.map((ref) => obj(servers[ref.split('/').pop() ?? '']));
    const ref = `#/channels/${id}`;
    return {
      id,
      title: str(channel.title) || id,
      address: str(channel.address),
      description: str(channel.description),
      inferred: inferred(channel) || channelServers.some(inferred),
      protocol: channelServers.map((s) => str(s.protocol)).join(', '),
      eventTypes: events.filter((e) => e.channels.includes(id)).map((e) => e.type),
      operations: operations
        .filter(({ op }) => str(obj(op.channel).$ref) === ref)
        .map(({ id: opId, op }) => ({
          id: opId,
          action: op.action === 'receive' ? ('receive' as const) : ('send' as const),
          title: str(op.title) || opId,
          summary: str(op.summary),
          description: str(op.description),
          inferred: inferred(op),
        })),
    };
  });
}
