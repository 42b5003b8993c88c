/**
 * Compares two versions of the documents: `api-smart-diff` finds and first classifies the changes (OpenAPI, and the
 * AsyncAPI document through its events view), our rules (classify.ts) settle the verdict, and each change is placed
 * at file:line where it is written, the new document's line, or the old one's for a removal. An edit of a component
 * that several operations use is one change, naming them all.
 */
import { isDeepStrictEqual } from 'node:util';
import { apiDiff } from 'api-smart-diff';
import { valueAt } from '../load/refs.js';
import type { SourceDocument } from '../load/source-map.js';
import { toPointer } from '../load/source-map.js';
import { classify, type Kind, type RawChange } from './classify.js';
import { openapiSubject, partOf, securityWords, splitAtOperation } from './describe.js';
import { eventsView, type ViewSource } from './events-view.js';
import { sourcePlace } from './locate.js';

/** One side of the comparison: both documents (either may be the absent stand-in) and how to name their files. */
export interface Side {
  readonly openapi: SourceDocument;
  readonly asyncapi: SourceDocument;
  /** A file as the report names it (`spec/openapi.yaml`, `v1.0.0:spec/openapi.yaml`). */
  readonly shown: (file: string) => string;
}

/** One change, as reported. */
export interface Change {
  readonly kind: Kind;
  readonly action: 'added' | 'removed' | 'changed';
  readonly document: 'openapi' | 'asyncapi';
  /** The operation, event, channel or document part it belongs to: `GET /pets`, `server event pet.added`. */
  readonly subject: string;
  /** What changed in it: `response 200 member data[].status`. */
  readonly what: string;
  /** The other operations and events the same edit reaches. */
  readonly also: readonly string[];
  readonly file: string;
  readonly line: number;
  readonly pointer: string;
}

/** A change with how directly its path reaches the place it is written (see SourcePlace). */
type Located = Change & { readonly branches: number };

/** Document parts no client depends on: descriptive metadata, examples, extensions. */
const IGNORED_ROOTS = new Set(['info', 'tags', 'externalDocs', 'openapi', 'jsonSchemaDialect']);
const IGNORED_TOKENS = new Set(['example', 'examples', 'description', 'summary', 'title', 'externalDocs']);

const ACTIONS = { add: 'added', remove: 'removed', replace: 'changed', rename: 'changed' } as const;

/** Every change from `before` to `after`, sorted: breaking first, then by file, line and subject. */
export function compareSpecs(before: Side, after: Side): Change[] {
  const changes = [...openapiChanges(before, after), ...asyncapiChanges(before, after)];
  return merged(changes).sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'breaking' ? -1 : 1) ||
      compareText(a.file, b.file) ||
      a.line - b.line ||
      compareText(a.subject, b.subject) ||
      compareText(a.what, b.what),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function openapiChanges(before: Side, after: Side): Located[] {
  if (isDeepStrictEqual(before.openapi.value, after.openapi.value)) return [];
  const raws = relevant(libraryDiff(before.openapi.value, after.openapi.value));
  markMoved(raws, (raw) => followed((raw.action === 'remove' ? before : after).openapi, changedValue(raw)));
  return raws.map((raw) => {
    const side = raw.action === 'remove' ? before : after;
    const { head, rest } = splitAtOperation(raw.path);
    const place = sourcePlace([side.openapi], side.openapi, [], raw.path);
    const parameter = (index: number) =>
      parameterName(valueIn(side.openapi, [...head, 'parameters', index]) ?? followed(side.openapi, changedValue(raw)));
    const context = { parameter, event: false, value: changedValue(raw), required: raw.required === true };
    const what =
      head[0] === 'security'
        ? securityWords(rest)
        : head[0] === 'components'
          ? rest.map(String).join('.') || 'definition'
          : partOf(rest, context);
    return change(raw, 'openapi', side, place, openapiSubject(head), what);
  });
}

function asyncapiChanges(before: Side, after: Side): Located[] {
  const views = {
    before: eventsView(before.asyncapi, before.openapi),
    after: eventsView(after.asyncapi, after.openapi),
  };
  if (isDeepStrictEqual(views.before.document, views.after.document)) return [];
  const raws = relevant(libraryDiff(views.before.document, views.after.document));
  return raws.flatMap((raw) => {
    const removed = raw.action === 'remove';
    const side = removed ? before : after;
    const source = (removed ? views.before : views.after).sources.get(String(raw.path[1]));
    if (raw.path[0] !== 'paths' || source === undefined) return [];
    const { rest } = splitAtOperation(raw.path);
    const place = eventPlace(side, source, rest);
    const context = {
      parameter: String,
      event: source.payload !== undefined,
      value: changedValue(raw),
      required: raw.required === true,
    };
    const what = rest.length === 0 && source.payload === undefined ? 'channel' : partOf(rest, context);
    return [change(raw, 'asyncapi', side, place, source.subject, what)];
  });
}

/** The library's changes from `before` to `after`, on copies: it rewrites the documents it is given. */
function libraryDiff(before: unknown, after: unknown): RawChange[] {
  return apiDiff(structuredClone(before), structuredClone(after)) as RawChange[];
}

/** Where a change inside an event's view operation is written: in its payload schema, else at the message. */
function eventPlace(side: Side, source: ViewSource, rest: readonly (string | number)[]) {
  const docs = [side.asyncapi, side.openapi];
  const at = rest.indexOf('schema');
  if (source.payload !== undefined && at >= 0)
    return sourcePlace(docs, side.asyncapi, source.payload, rest.slice(at + 1));
  return sourcePlace(docs, side.asyncapi, source.tokens, []);
}

function change(
  raw: RawChange,
  document: Change['document'],
  side: Side,
  place: ReturnType<typeof sourcePlace>,
  subject: string,
  what: string,
): Located {
  const pointer = toPointer(place.tokens);
  const at = place.doc.locate(pointer);
  const file = side.shown(at.file ?? place.doc.file);
  return {
    kind: classify(raw),
    action: ACTIONS[raw.action],
    document,
    subject,
    what,
    also: [],
    file,
    line: at.line,
    pointer,
    branches: place.branches,
  };
}

/** The value a change adds or removes (the new one for a replacement). */
function changedValue(raw: RawChange): unknown {
  return raw.action === 'remove' ? raw.before : raw.after;
}

/** The value at `path` in `doc`, its references followed; undefined when the path is not there. */
function valueIn(doc: SourceDocument, path: readonly (string | number)[]): unknown {
  const place = sourcePlace([doc], doc, [], path);
  return place.complete ? valueAt(place.doc.value, toPointer(place.tokens)) : undefined;
}

/** Marks a parameter removed from one location and added to another of the same operation (`moved`). */
function markMoved(raws: readonly RawChange[], value: (raw: RawChange) => unknown): void {
  const whole = raws.filter((raw) => raw.path.at(-2) === 'parameters' && typeof raw.path.at(-1) === 'number');
  const key = (raw: RawChange) => {
    const { name, in: where } = (value(raw) ?? {}) as { name?: unknown; in?: unknown };
    return { op: toPointer(raw.path.slice(0, -2)), name: String(name), where: String(where) };
  };
  for (const removed of whole.filter((raw) => raw.action === 'remove')) {
    const old = key(removed);
    for (const added of whole.filter((raw) => raw.action === 'add')) {
      const now = key(added);
      if (now.op !== old.op || now.name !== old.name || now.where === old.where) continue;
      removed.moved = true;
      added.moved = true;
    }
  }
}

/** `value`, or the value its local `$ref` names in `doc`. */
function followed(doc: SourceDocument, value: unknown): unknown {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#') ? valueAt(doc.value, ref.slice(1)) : value;
}

/** `limit (query)`: the name and location of a parameter. */
function parameterName(parameter: unknown): string {
  const { name, in: where } = (parameter ?? {}) as { name?: unknown; in?: unknown };
  return `${String(name)}${typeof where === 'string' ? ` (${where})` : ''}`;
}

/**
 * The changes a client can notice: no descriptive parts, no component seen on its own (its uses are reported), and
 * a member's `required` entry folded into the member's own addition or removal.
 */
function relevant(raws: readonly RawChange[]): RawChange[] {
  let kept = raws
    .flatMap(listed)
    .filter(
      (raw) =>
        raw.type !== 'annotation' &&
        !IGNORED_ROOTS.has(String(raw.path[0])) &&
        !(raw.path[0] === 'components' && raw.path[1] !== 'securitySchemes') &&
        !descriptive(raw.path),
    );
  kept = withoutReorders(kept);
  const byPath = new Map(kept.map((raw) => [`${raw.action}\0${toPointer(raw.path)}`, raw]));
  return kept.filter((raw) => {
    if (raw.path.at(-2) !== 'required' || typeof raw.path.at(-1) !== 'number') return true;
    const member = changedValue(raw);
    const sibling = byPath.get(`${raw.action}\0${toPointer([...raw.path.slice(0, -2), 'properties', String(member)])}`);
    if (sibling === undefined) return true;
    sibling.required = true;
    return false;
  });
}

/** A `parameters` list added or removed whole, as the addition or removal of each parameter in it. */
function listed(raw: RawChange): RawChange[] {
  const list = raw.action === 'add' ? raw.after : raw.before;
  if (raw.path.at(-1) !== 'parameters' || raw.action === 'replace' || !Array.isArray(list)) return [raw];
  const side = raw.action === 'add' ? 'after' : 'before';
  return list.map((item, i) => ({ ...raw, path: [...raw.path, i], [side]: item }));
}

/**
 * The changes less the library's pairing noise: when it pairs the branches of a `oneOf`/`anyOf` in another order
 * than written, it reports references swapped between them. A set of `$ref` replacements at the same place but for
 * the branch index, whose old targets are the new ones reordered, is an order change, which never counts.
 */
function withoutReorders(raws: RawChange[]): RawChange[] {
  const refs = raws.filter((raw) => raw.action === 'replace' && raw.path.at(-1) === '$ref');
  const place = (raw: RawChange) =>
    toPointer(
      raw.path.map((t, i) => (typeof t === 'number' && /^(oneOf|anyOf)$/.test(String(raw.path[i - 1])) ? '*' : t)),
    );
  const groups = new Map<string, RawChange[]>();
  for (const raw of refs) groups.set(place(raw), [...(groups.get(place(raw)) ?? []), raw]);
  const reordered = new Set<RawChange>();
  for (const group of groups.values()) {
    const olds = group.map((raw) => String(raw.before)).sort();
    const news = group.map((raw) => String(raw.after)).sort();
    if (olds.join('\0') === news.join('\0')) for (const raw of group) reordered.add(raw);
  }
  return raws.filter((raw) => !reordered.has(raw));
}

/** Whether `path` is in a description, an example or an extension (a keyword there, not a member's name). */
function descriptive(path: readonly (string | number)[]): boolean {
  return path.some(
    (t, i) => typeof t === 'string' && path[i - 1] !== 'properties' && (t.startsWith('x-') || IGNORED_TOKENS.has(t)),
  );
}

/**
 * One change per edit: changes at the same place with the same action become one, the worst verdict winning, named
 * after the use that reaches the place most directly (an event rather than the union of all events it is part of).
 */
function merged(changes: readonly Located[]): Change[] {
  const groups = new Map<string, Located[]>();
  for (const c of changes) {
    const key = `${c.file}\0${c.pointer}\0${c.action}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort(
      (a, b) => a.branches - b.branches || compareText(a.subject, b.subject) || compareText(a.what, b.what),
    );
    const { branches: _, ...first } = sorted[0] as Located;
    const kind = group.some((c) => c.kind === 'breaking') ? 'breaking' : 'non-breaking';
    const also = [...new Set(sorted.map((c) => c.subject))].filter((s) => s !== first.subject).sort();
    return { ...first, kind, also };
  });
}
