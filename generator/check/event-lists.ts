/**
 * Where this service's event lists lag behind its messages: a message's payload missing from its union or the
 * union's discriminator mapping, a message no channel lists yet missing from the channels (and their operations)
 * that list every other event of its direction. `casi check` reports them and `casi check --fix` adds them.
 */
import type { Diagnostic } from '../diagnostics.js';
import { payloadTypeTag, type RawMessage, readMessages, unionMembers } from '../ir/events.js';
import { type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import { toPointer } from '../load/source-map.js';
import type { Append } from './yaml-append.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The unions of payloads by envelope. */
export const EVENT_UNIONS = [
  { union: 'ServerEventPayload', envelope: 'ServerEvent' },
  { union: 'ClientEventPayload', envelope: 'ClientEvent' },
] as const;

/** One entry to add to one document, and what and where it is (`X in Y`). */
export interface EventListFix {
  readonly document: 'openapi' | 'asyncapi';
  readonly append: Append;
  readonly entry: string;
}

/** Every entry the event lists lack. */
export function eventListFixes(openapi: SourceDocument, asyncapi: SourceDocument): EventListFix[] {
  const messages = readMessages(asyncapi);
  return EVENT_UNIONS.flatMap(({ union, envelope }) => {
    const own = messages.filter((m) => m.envelope === envelope && m.payload !== undefined);
    return [...unionFixes(openapi, union, own), ...channelFixes(asyncapi, own)];
  });
}

/** The fixes as `casi check` errors, at the list that lacks each entry. */
export function eventListDiagnostics(openapi: SourceDocument, asyncapi: SourceDocument): Diagnostic[] {
  return eventListFixes(openapi, asyncapi).map((fix) => {
    const doc = fix.document === 'openapi' ? openapi : asyncapi;
    const pointer = toPointer(fix.append.path);
    return {
      severity: 'error',
      file: doc.file,
      ...doc.locate(pointer),
      pointer,
      message: `missing ${fix.entry} (casi check --fix adds it)`,
      rule: 'casi/event-lists',
    };
  });
}

/** The payloads `union` lacks, and the tags its discriminator mapping lacks. */
function unionFixes(openapi: SourceDocument, union: string, own: readonly RawMessage[]): EventListFix[] {
  const path = ['components', 'schemas', union];
  const members = unionMembers(openapi, union);
  const mapping = Object.entries(obj(valueAt(openapi.value, toPointer([...path, 'discriminator', 'mapping']))));
  const fixes: EventListFix[] = [];
  for (const { name, payload = '' } of own) {
    const last = members.at(-1);
    if (!members.includes(payload) && last !== undefined)
      fixes.push({
        document: 'openapi',
        append: { path: [...path, 'oneOf'], sibling: members.length - 1, replace: [[last, payload]] },
        entry: `${payload} in ${union}.oneOf (the payload of message ${name})`,
      });
    const tag = payloadTypeTag(openapi, payload);
    const [lastTag, lastTarget] = mapping.at(-1) ?? [];
    const mapped = mapping.some(([key, target]) => key === tag || schemaRefName(target) === payload);
    const lastName = schemaRefName(lastTarget);
    if (tag !== undefined && !mapped && lastTag !== undefined && lastName !== undefined)
      fixes.push({
        document: 'openapi',
        append: {
          path: [...path, 'discriminator', 'mapping'],
          sibling: lastTag,
          replace: [
            [lastTag, tag],
            [lastName, payload],
          ],
        },
        entry: `${tag}: '#/components/schemas/${payload}' in the discriminator mapping of ${union}`,
      });
  }
  return fixes;
}

/** One listed message: its key in the channel and the component message it names. */
interface Listed {
  readonly key: string;
  readonly message: string;
}

/**
 * The messages of `own` no channel lists, added to each channel that lists all the others, and to each operation
 * on such a channel that lists them.
 */
function channelFixes(asyncapi: SourceDocument, own: readonly RawMessage[]): EventListFix[] {
  const channels = obj(asyncapi.value.channels);
  const listed = new Map(Object.keys(channels).map((c) => [c, listedMessages(channels, c)]));
  const names = new Set(own.map((m) => m.name));
  const everywhere = new Set([...listed.values()].flat().map((l) => l.message));
  const unlisted = own.filter((m) => !everywhere.has(m.name)).map((m) => m.name);
  const others = [...names].filter((n) => everywhere.has(n));
  if (unlisted.length === 0 || others.length === 0) return [];
  const fixes: EventListFix[] = [];
  for (const [channel, entries] of listed) {
    const mine = entries.filter((e) => names.has(e.message));
    const last = mine.at(-1);
    if (last === undefined || !others.every((n) => mine.some((e) => e.message === n))) continue;
    for (const name of unlisted)
      fixes.push({
        document: 'asyncapi',
        append: { path: ['channels', channel, 'messages'], sibling: last.key, replace: renames(last, name) },
        entry: `message ${name} in channel ${channel}`,
      });
    fixes.push(...operationFixes(asyncapi, channel, mine, unlisted));
  }
  return fixes;
}

/** For each operation on `channel` that lists messages of `mine`, the `unlisted` ones it lacks. */
function operationFixes(
  asyncapi: SourceDocument,
  channel: string,
  mine: readonly Listed[],
  unlisted: readonly string[],
): EventListFix[] {
  const fixes: EventListFix[] = [];
  for (const [operation, value] of Object.entries(obj(asyncapi.value.operations))) {
    if (obj(obj(value).channel).$ref !== `#/channels/${channel}`) continue;
    const refs = (Array.isArray(obj(value).messages) ? (obj(value).messages as unknown[]) : []).map((m) =>
      String(obj(m).$ref ?? ''),
    );
    const prefix = `#/channels/${channel}/messages/`;
    const keys = new Set(mine.map((e) => `${prefix}${e.key}`));
    const index = refs.findLastIndex((ref) => keys.has(ref));
    const last = mine.find((e) => refs[index] === `${prefix}${e.key}`);
    if (last === undefined) continue;
    for (const name of unlisted)
      fixes.push({
        document: 'asyncapi',
        append: { path: ['operations', operation, 'messages'], sibling: index, replace: [[last.key, name]] },
        entry: `message ${name} in operation ${operation} (channel ${channel})`,
      });
  }
  return fixes;
}

/** The replacements that turn a copy of `last`'s entry into one for message `name` (keyed by its name). */
function renames(last: Listed, name: string): [string, string][] {
  return last.key === last.message
    ? [[last.key, name]]
    : [
        [last.key, name],
        [last.message, name],
      ];
}

/** The component messages a channel lists, directly or through another channel's entry. */
function listedMessages(channels: Obj, channel: string, depth = 0): Listed[] {
  return Object.entries(obj(obj(channels[channel]).messages)).flatMap(([key, value]) => {
    const ref = String(obj(value).$ref ?? '');
    const component = /^#\/components\/messages\/([^/]+)$/.exec(ref)?.[1];
    if (component !== undefined) return [{ key, message: component }];
    const [, other, otherKey] = /^#\/channels\/([^/]+)\/messages\/([^/]+)$/.exec(ref) ?? [];
    if (other === undefined || depth > 4) return [];
    const found = listedMessages(channels, other, depth + 1).find((l) => l.key === otherKey);
    return found ? [{ key, message: found.message }] : [];
  });
}
