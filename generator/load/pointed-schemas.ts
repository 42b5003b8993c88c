/**
 * Schemas named by pointer, the last step of `load`: a local `$ref` where a schema goes whose target is not a whole
 * component schema (`#/paths/~1x/get/…/schema/properties/a`, `#/components/schemas/A/properties/b`,
 * `#/components/messages/m/payload`) points instead at a copy of that schema, made a component schema of the
 * document the pointer is read in, under a free name; so every later stage names every schema a reference reaches,
 * cycles included. A pointer is read in the document it is written in (or, from the AsyncAPI document, in the OpenAPI
 * one it names by path). Diagnostics inside a copy are placed where the schema is written (`locate`).
 */
import { isLiteral, isSchemaPosition, type Path, splitRef, valueAt } from './refs.js';
import { pointerTokens, type SourceDocument, toPointer } from './source-map.js';

type Obj = Record<string, unknown>;
type Kind = 'openapi' | 'asyncapi';

/** Both documents, as bundled. */
interface Specs {
  readonly openapi: SourceDocument;
  readonly asyncapi: SourceDocument;
}

/**
 * A reference where a schema goes: `holder[key]` (a `$ref`, or a discriminator mapping's entry) at `path`; `named`
 * when it is a mapping's entry that names a component schema (`Dog`) instead of referencing it.
 */
interface SchemaRef {
  readonly path: Path;
  readonly key: string;
  readonly ref: string;
  readonly named?: true;
}

/** A pointer to a whole component schema, which every later stage names already. */
const COMPONENT_SCHEMA = /^\/components\/schemas\/[^/]+$/;

/** Returns `specs` with every such reference hoisted as described above; documents without one come back as they are. */
export function hoistPointedSchemas<T extends Specs>(specs: T): T {
  const hoister = new Hoister(specs);
  const edits = { openapi: hoister.edits('openapi'), asyncapi: hoister.edits('asyncapi') };
  if (edits.openapi.length === 0 && edits.asyncapi.length === 0) return specs;
  return {
    ...specs,
    openapi: hoister.document('openapi', edits.openapi),
    asyncapi: hoister.document('asyncapi', edits.asyncapi),
  };
}

class Hoister {
  /**
   * Every component schema name of both documents, every name a message may be known by (the IR names payload
   * schemas after their messages), and each name given here.
   */
  private readonly taken = new Set<string>();
  /** The name of each schema hoisted, by `kind#pointer`. */
  private readonly names = new Map<string, string>();
  /** The copies made, by document and name, with the pointer each was copied from. */
  private readonly copies = { openapi: new Map<string, CopyOf>(), asyncapi: new Map<string, CopyOf>() };

  constructor(private readonly specs: Specs) {
    for (const doc of [specs.openapi, specs.asyncapi])
      for (const name of Object.keys(obj(obj(doc.value.components).schemas))) this.taken.add(name);
    for (const name of messageNames(specs.asyncapi.value)) this.taken.add(name);
  }

  /** The references of the document of `kind` to rewrite, each with the `$ref` it gets, in document order. */
  edits(kind: Kind): { ref: SchemaRef; to: string }[] {
    const found: { ref: SchemaRef; to: string }[] = [];
    for (const ref of schemaRefs(this.specs[kind].value, [], kind === 'asyncapi')) {
      const to = this.replacement(kind, ref);
      if (to !== undefined) found.push({ ref, to });
    }
    return found;
  }

  /** The document of `kind` with `edits` made and its copies added; its `locate` places them where they come from. */
  document(kind: Kind, edits: readonly { ref: SchemaRef; to: string }[]): SourceDocument {
    const doc = this.specs[kind];
    const copies = this.copies[kind];
    if (edits.length === 0 && copies.size === 0) return doc;
    const value = withEdits(doc.value, edits);
    if (copies.size > 0) {
      const components = obj(value.components);
      const schemas = { ...obj(components.schemas) };
      for (const [name, copy] of copies) schemas[name] = copy.value;
      value.components = { ...components, schemas };
    }
    const locate = (pointer: string) => {
      const [section, member, name, ...rest] = pointerTokens(pointer);
      const copy = section === 'components' && member === 'schemas' && name !== undefined && copies.get(name);
      if (!copy) return doc.locate(pointer);
      const at = `${copy.from}${toPointer(rest)}`;
      return { pointer: at, ...doc.locate(at) };
    };
    return { ...doc, value, locate };
  }

  /**
   * The `$ref` that replaces `ref` in the document of `kind`: for a mapping's schema name, the reference to that
   * component schema (so that every later stage reads one form); else see `hoisted`.
   */
  private replacement(kind: Kind, ref: SchemaRef): string | undefined {
    if (!ref.named) return this.hoisted(kind, ref.ref);
    const schemas = obj(obj(this.specs[kind].value.components).schemas);
    return Object.hasOwn(schemas, ref.ref) ? `#${toPointer(['components', 'schemas', ref.ref])}` : undefined;
  }

  /**
   * The `$ref` that replaces `ref`, written in the document of `kind`, when it names a schema to hoist (which it
   * hoists, once); undefined when it stays as it is: a whole component schema, a pointer to nothing (the check names
   * it), another file's.
   */
  private hoisted(kind: Kind, ref: string): string | undefined {
    const { file, pointer: written } = splitRef(ref, this.specs[kind].file);
    const pointer = canonical(written);
    const into: Kind | undefined =
      file === this.specs[kind].file
        ? kind
        : kind === 'asyncapi' && file === this.specs.openapi.file
          ? 'openapi'
          : undefined;
    if (into === undefined || !pointer || COMPONENT_SCHEMA.test(pointer)) return undefined;
    const name = this.hoist(into, pointer);
    if (name === undefined) return undefined;
    const path = ref.slice(0, ref.indexOf('#'));
    return `${into === kind ? '' : path}#${toPointer(['components', 'schemas', name])}`;
  }

  /** The name of the copy of the schema at `pointer` in the document of `kind`, made now if new. */
  private hoist(kind: Kind, pointer: string): string | undefined {
    const key = `${kind}#${pointer}`;
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const target = valueAt(this.specs[kind].value, pointer);
    if (target === undefined) return undefined;
    const name = freeName(this.taken, pointer);
    this.taken.add(name);
    this.names.set(key, name);
    const copy: CopyOf = { from: pointer, value: structuredClone(target) };
    this.copies[kind].set(name, copy);
    const at = ['components', 'schemas', name];
    // Named before its own references are followed, so that one back to it (a cycle) finds it.
    for (const ref of [...schemaRefs(copy.value, at, kind === 'asyncapi')]) {
      const to = this.replacement(kind, ref);
      if (to === undefined) continue;
      if (ref.path.length === at.length && ref.key === '$ref') copy.value = { ...obj(copy.value), $ref: to };
      else obj(nodeAt(copy.value, ref.path.slice(at.length)))[ref.key] = to;
    }
    return name;
  }
}

/** A schema copied into the component schemas: where it was, and the copy. */
interface CopyOf {
  readonly from: string;
  value: unknown;
}

/**
 * Every reference of `value` (at `path`) where a schema goes: a `$ref` at a schema position, and each local entry of
 * a schema's discriminator mapping (a pointer, or a schema's name).
 */
function* schemaRefs(value: unknown, path: Path, asyncapi: boolean): Generator<SchemaRef> {
  if (value === null || typeof value !== 'object') return;
  const node = value as Obj;
  if (typeof node.$ref === 'string' && isSchemaPosition(path, asyncapi)) yield { path, key: '$ref', ref: node.$ref };
  if (path.at(-1) === 'discriminator' && isSchemaPosition(path.slice(0, -1), asyncapi))
    for (const [tag, ref] of Object.entries(obj(node.mapping))) {
      if (typeof ref !== 'string') continue;
      if (ref.startsWith('#')) yield { path: [...path, 'mapping'], key: tag, ref };
      else if (!/[#/]/.test(ref)) yield { path: [...path, 'mapping'], key: tag, ref, named: true };
    }
  for (const [key, child] of Object.entries(node)) {
    if (child === null || typeof child !== 'object' || isLiteral(node, path, key, child)) continue;
    yield* schemaRefs(child, [...path, Array.isArray(value) ? Number(key) : key], asyncapi);
  }
}

/**
 * The names of the AsyncAPI document's messages: their keys in `components.messages` and in a channel's `messages`
 * (3.x), and the `messageId` and `name` of each (2.6 operations' `message` and its `oneOf` included).
 */
function messageNames(asyncapi: Obj): Set<string> {
  const names = new Set<string>();
  const add = (key: string | undefined, message: unknown) => {
    if (key !== undefined) names.add(key);
    const { messageId, name, oneOf } = obj(message);
    for (const given of [messageId, name]) if (typeof given === 'string') names.add(given);
    if (Array.isArray(oneOf)) for (const each of oneOf) add(undefined, each);
  };
  for (const [key, message] of Object.entries(obj(obj(asyncapi.components).messages))) add(key, message);
  for (const channel of Object.values(obj(asyncapi.channels))) {
    const { messages, publish, subscribe } = obj(channel);
    for (const [key, message] of Object.entries(obj(messages))) add(key, message);
    for (const operation of [publish, subscribe]) add(undefined, obj(operation).message);
  }
  return names;
}

/** `root` with each edit made, copying only the objects on the way to the ones that change. */
function withEdits(root: Obj, edits: readonly { ref: SchemaRef; to: string }[]): Obj {
  const copied = new Set<unknown>();
  const copy = <V>(node: V): V => {
    if (copied.has(node)) return node;
    const made = (Array.isArray(node) ? [...node] : { ...node }) as V;
    copied.add(made);
    return made;
  };
  const out = copy(root);
  for (const { ref, to } of edits) {
    let node: Obj = out;
    for (const key of ref.path) {
      const child = copy(node[key] as Obj);
      node[key] = child;
      node = child;
    }
    node[ref.key] = to;
  }
  return out;
}

/** `pointer` with its percent-encoding undone (`%7Bid%7D` is `{id}`), so that one place has one copy; or undefined. */
function canonical(pointer: string): string | undefined {
  try {
    return toPointer(pointerTokens(pointer));
  } catch {
    return undefined; // Malformed percent-encoding: a pointer to nothing, which the check names.
  }
}

/** The value at `path` below `root`. */
function nodeAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = (node as Obj)[key];
  return node;
}

/** The last token of `pointer` as an identifier, with a number added until no schema or message has that name. */
function freeName(taken: ReadonlySet<string>, pointer: string): string {
  const base = (pointerTokens(pointer).at(-1) ?? '').replace(/[^A-Za-z0-9_]/g, '_') || 'schema';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

function obj(value: unknown): Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}
