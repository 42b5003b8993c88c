/**
 * An AsyncAPI document (2.6 or 3.x) seen as OpenAPI operations, so that one direction-aware comparison covers both
 * documents: each server event is a response body (read by the client), each client event a request body (written
 * by it), each channel address an operation of its own. The diff library reads AsyncAPI 2.x only; this view gives
 * 3.x documents the same request/response rules as REST.
 */
import { splitRef } from '../load/refs.js';
import type { SourceDocument } from '../load/source-map.js';
import { pointerTokens } from '../load/source-map.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Who sends an event: the service (a server event) or the client (a client event). */
export type Sender = 'server' | 'client';

/** Where a view path comes from in the AsyncAPI document. */
export interface ViewSource {
  /** `server event conversation.started`, `client event user.message.send`, `channel /conversations/{id}`. */
  readonly subject: string;
  /** The message (or channel) as written. */
  readonly tokens: readonly string[];
  /** Its payload schema as written (events only). */
  readonly payload?: readonly string[];
}

/** The view: an OpenAPI document, and for each of its paths the AsyncAPI place it stands for. */
export interface EventsView {
  readonly document: Obj;
  readonly sources: ReadonlyMap<string, ViewSource>;
}

/** One message as reached from an operation: who sends it, its name, the message and where it is written. */
interface Reached {
  readonly sender: Sender;
  readonly name: string;
  readonly message: Obj;
  readonly tokens: string[];
}

/** Builds the view of `asyncapi`; `openapi` gives the component schemas its payloads may reference. */
export function eventsView(asyncapi: SourceDocument, openapi: SourceDocument): EventsView {
  const paths: Obj = {};
  const sources = new Map<string, ViewSource>();
  for (const [key, channel] of Object.entries(obj(asyncapi.value.channels))) {
    const resolved = follow(asyncapi, obj(channel), ['channels', key]);
    const address = typeof resolved.value.address === 'string' ? resolved.value.address : key;
    const path = `/channel${address.startsWith('/') ? '' : '/'}${address}`;
    if (sources.has(path)) continue;
    paths[path] = { get: { responses: { '200': { description: '' } } } };
    sources.set(path, { subject: `channel ${address}`, tokens: resolved.tokens });
  }
  for (const reached of reachedMessages(asyncapi)) {
    const path = `/${reached.sender}/${reached.name}`;
    if (sources.has(path)) continue;
    const { schema, tokens } = payloadOf(reached);
    const content = { 'application/json': { schema: localRefs(schema, asyncapi, openapi) } };
    paths[path] =
      reached.sender === 'server'
        ? { get: { responses: { '200': { description: '', content } } } }
        : { post: { requestBody: { required: true, content }, responses: { '200': { description: '' } } } };
    sources.set(path, { subject: `${reached.sender} event ${reached.name}`, tokens: reached.tokens, payload: tokens });
  }
  const schemas = { ...obj(obj(asyncapi.value.components).schemas), ...obj(obj(openapi.value.components).schemas) };
  const document = {
    openapi: '3.1.0',
    info: { title: 'events', version: '0' },
    paths,
    components: { schemas: reachable(paths, localRefs(schemas, asyncapi, openapi) as Obj) },
  };
  return { document, sources };
}

/**
 * Every message an operation sends or receives, by the service's role: AsyncAPI 3 `send` and 2.6 `subscribe` are
 * server events; 3 `receive` and 2.6 `publish` client events. A 3.x operation without `messages` takes its channel's.
 */
function reachedMessages(asyncapi: SourceDocument): Reached[] {
  const reached: Reached[] = [];
  const add = (sender: Sender, value: unknown, tokens: string[], fallback: string) => {
    const found = follow(asyncapi, obj(value), tokens);
    if (Array.isArray(found.value.oneOf)) {
      for (const [i, entry] of found.value.oneOf.entries())
        add(sender, entry, [...found.tokens, 'oneOf', String(i)], `${fallback}${i + 1}`);
      return;
    }
    const key = found.tokens.at(-1) ?? fallback;
    const name = String(found.value.name ?? found.value.messageId ?? key);
    reached.push({ sender, name, message: found.value, tokens: found.tokens });
  };
  for (const [key, operation] of Object.entries(obj(asyncapi.value.operations))) {
    const op = follow(asyncapi, obj(operation), ['operations', key]);
    const sender: Sender = op.value.action === 'send' ? 'server' : 'client';
    const listed = op.value.messages;
    if (Array.isArray(listed)) {
      for (const [i, message] of listed.entries()) add(sender, message, [...op.tokens, 'messages', String(i)], key);
      continue;
    }
    const channel = follow(asyncapi, obj(op.value.channel), [...op.tokens, 'channel']);
    for (const [name, message] of Object.entries(obj(channel.value.messages)))
      add(sender, message, [...channel.tokens, 'messages', name], name);
  }
  for (const [key, channel] of Object.entries(obj(asyncapi.value.channels))) {
    const item = follow(asyncapi, obj(channel), ['channels', key]);
    for (const [action, sender] of [
      ['subscribe', 'server'],
      ['publish', 'client'],
    ] as const) {
      const message = obj(item.value[action]).message;
      if (message !== undefined) add(sender, message, [...item.tokens, action, 'message'], `${key}.${action}`);
    }
  }
  return reached.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The payload schema of a message (the `schema` of a multi-format payload) and where it is written. */
function payloadOf(reached: Reached): { schema: unknown; tokens: string[] } {
  const payload = reached.message.payload;
  const tokens = [...reached.tokens, 'payload'];
  if (typeof obj(payload).schemaFormat === 'string')
    return { schema: obj(payload).schema ?? {}, tokens: [...tokens, 'schema'] };
  return { schema: payload ?? {}, tokens };
}

/** Follows local `$ref`s from `value` (at `tokens`) to the value they name, and its place. */
function follow(doc: SourceDocument, value: Obj, tokens: string[]): { value: Obj; tokens: string[] } {
  let current = { value, tokens };
  for (let hops = 0; hops < 16 && typeof current.value.$ref === 'string'; hops++) {
    const { file, pointer } = splitRef(current.value.$ref, doc.file);
    if (file !== doc.file) break;
    const next = pointerTokens(pointer);
    let node: unknown = doc.value;
    for (const token of next) node = obj(node)[token];
    if (node === undefined) break;
    current = { value: obj(node), tokens: next };
  }
  return current;
}

/** The schemas of `schemas` that `paths` reference, directly or through each other (only those can change events). */
function reachable(paths: Obj, schemas: Obj): Obj {
  const kept: Obj = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) visit(v);
    if (value === null || typeof value !== 'object') return;
    for (const [key, member] of Object.entries(value)) {
      const name =
        key === '$ref' && typeof member === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(member)?.[1] : undefined;
      if (name !== undefined && !(name in kept) && name in schemas) {
        kept[name] = schemas[name];
        visit(schemas[name]);
      } else visit(member);
    }
  };
  visit(paths);
  return kept;
}

/**
 * A copy of `value` whose references to component schemas of either document point into the view's own
 * `components.schemas` (where the OpenAPI ones win a clash of names).
 */
function localRefs(value: unknown, asyncapi: SourceDocument, openapi: SourceDocument): unknown {
  if (Array.isArray(value)) return value.map((v) => localRefs(v, asyncapi, openapi));
  if (value === null || typeof value !== 'object') return value;
  const copy: Obj = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') {
      const { file, pointer } = splitRef(member, asyncapi.file);
      const known = file === asyncapi.file || file === openapi.file;
      copy[key] = known && pointer.startsWith('/components/schemas/') ? `#${pointer}` : member;
    } else copy[key] = localRefs(member, asyncapi, openapi);
  }
  return copy;
}
