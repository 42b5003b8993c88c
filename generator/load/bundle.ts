/**
 * Bundling, the end of `load`: schemas written in files of their own (`spec/schemas/*.yaml`) and referenced from
 * either document become component schemas of the OpenAPI document, so that every later stage reads two documents
 * whose references stay within them. A `$ref` to another file where a schema goes is hoisted to
 * `components/schemas/<name>` (the last token of its pointer, or the file's name without extension) and points
 * there; anywhere else (a parameter, a response, …) the value it names takes its place. Documents without such
 * references come back as they are.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { type Diagnostic, InputError, shownPath } from '../diagnostics.js';
import type { LoadedSpecs } from './index.js';
import { isLiteral, isSchemaPosition, type Path, refsIn, splitRef, valueAt } from './refs.js';
import {
  type Located,
  parseSourceDocument,
  pointerTokens,
  readSourceDocument,
  type SourceDocument,
  toPointer,
} from './source-map.js';

/** Both documents, as read. */
type Specs = Pick<LoadedSpecs, 'openapi' | 'asyncapi'>;

type Obj = Record<string, unknown>;

/** Returns `specs` with every reference to another file resolved as described above. */
export async function bundleSpecs(specs: Specs): Promise<LoadedSpecs> {
  const files = await readReferencedFiles(specs);
  const bundled = files.size === 2 ? specs : new Bundler(specs, files).run();
  return { ...bundled, files: [...files.keys()] };
}

/** The two documents and every file their references reach, transitively; an unreadable one is named at its `$ref`. */
async function readReferencedFiles(specs: Specs): Promise<Map<string, SourceDocument>> {
  const files = new Map<string, SourceDocument>([
    [specs.openapi.file, specs.openapi],
    [specs.asyncapi.file, specs.asyncapi],
  ]);
  const problems: Diagnostic[] = [];
  let pending = [...files.values()];
  while (pending.length > 0) {
    const found: SourceDocument[] = [];
    for (const doc of pending) {
      for (const { ref, path } of refsIn(doc.value)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
          problems.push(refProblem(doc, path, `\`$ref: ${ref}\` is a URL; casi reads local files only`));
          continue;
        }
        const { file } = splitRef(ref, doc.file);
        if (files.has(file)) continue;
        try {
          const read = await readSourceDocument(file);
          files.set(file, read);
          // Another OpenAPI document: only the pointers into it are read (in the one given), not what it refers to.
          if (typeof read.value.openapi !== 'string') found.push(read);
        } catch (error) {
          if (error instanceof InputError && error.diagnostics.length > 0) problems.push(...error.diagnostics);
          else problems.push(refProblem(doc, path, `\`$ref: ${ref}\`: ${(error as Error).message}`));
        }
      }
    }
    pending = found;
  }
  if (problems.length > 0) throw new InputError('a referenced file cannot be read', problems);
  return files;
}

/** An error at the `$ref` member of the object at `path` in `doc`. */
function refProblem(doc: SourceDocument, path: Path, message: string): Diagnostic {
  const pointer = toPointer([...path, '$ref']);
  return { severity: 'error', file: doc.file, ...doc.locate(pointer), pointer, message, rule: 'references' };
}

/** Where a value is read from (`from`, at `source`) and where it goes in the output (`at`, in `target`). */
interface Place {
  readonly from: SourceDocument;
  readonly source: Path;
  readonly at: Path;
  readonly target: 'openapi' | 'asyncapi';
  /** The references being inlined around this value (`file#pointer`), to refuse a cycle. */
  readonly inlining: readonly string[];
}

class Bundler {
  /** The schemas hoisted from other files, by name. */
  private readonly hoisted: Obj = {};
  /** Where each schema that came from another file is written, by name (to place diagnostics). */
  private readonly origins = new Map<string, { doc: SourceDocument; pointer: string }>();
  /** Every component schema name, with the `file#pointer` it stands for. */
  private readonly owners = new Map<string, string>();
  /** Component schemas of the OpenAPI document that are a `$ref` to another file: the name stays theirs. */
  private readonly aliases = new Map<string, string>();
  private readonly problems: Diagnostic[] = [];
  /** How the AsyncAPI document refers to the OpenAPI document (`./openapi.yaml`). */
  private readonly openapiFromAsyncapi: string;

  constructor(
    private readonly specs: Specs,
    private readonly files: Map<string, SourceDocument>,
  ) {
    const { openapi, asyncapi } = specs;
    const own = ((openapi.value.components as Obj | undefined)?.schemas ?? {}) as Obj;
    for (const [name, schema] of Object.entries(own)) {
      const ref = (schema as { $ref?: unknown } | null)?.$ref;
      const target = typeof ref === 'string' ? splitRef(ref, openapi.file) : undefined;
      const foreign = target && target.file !== openapi.file && target.file !== asyncapi.file;
      const key = foreign ? `${target.file}#${target.pointer}` : `${openapi.file}#/components/schemas/${name}`;
      this.owners.set(name, key);
      if (foreign && !this.aliases.has(key)) this.aliases.set(key, name);
    }
    const path = relative(dirname(asyncapi.file), openapi.file);
    this.openapiFromAsyncapi = path.startsWith('.') ? path : `./${path}`;
  }

  run(): Specs {
    const { openapi, asyncapi } = this.specs;
    const start = { source: [], at: [], inlining: [] } as const;
    const openapiValue = this.rewrite(openapi.value, { ...start, from: openapi, target: 'openapi' }) as Obj;
    const asyncapiValue = this.rewrite(asyncapi.value, { ...start, from: asyncapi, target: 'asyncapi' }) as Obj;
    if (this.problems.length > 0)
      throw new InputError('the documents refer to files that cannot be bundled', this.problems);
    const components = (openapiValue.components ?? {}) as Obj;
    openapiValue.components = { ...components, schemas: { ...((components.schemas as Obj) ?? {}), ...this.hoisted } };
    return {
      openapi: { ...openapi, value: openapiValue, locate: (pointer) => this.locate(pointer) },
      asyncapi: { ...asyncapi, value: asyncapiValue },
    };
  }

  /**
   * A schema that came from another file is placed there, at its pointer in that file; everything else where the
   * OpenAPI document has it.
   */
  private locate(pointer: string): Located {
    const [section, kind, name, ...rest] = pointerTokens(pointer);
    const origin = section === 'components' && kind === 'schemas' && name !== undefined && this.origins.get(name);
    if (!origin) return this.specs.openapi.locate(pointer);
    const at = `${origin.pointer}${toPointer(rest)}`;
    return { file: origin.doc.file, pointer: at, ...origin.doc.locate(at) };
  }

  private rewrite(value: unknown, place: Place): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item, i) => this.rewrite(item, this.into(place, i)));
    const ref = (value as Obj).$ref;
    if (typeof ref === 'string') return this.resolve(value as Obj, ref, place);
    const out: Obj = {};
    for (const [key, child] of Object.entries(value)) {
      if (isLiteral(value, place.source, key, child)) out[key] = child;
      else if (key === 'mapping' && place.at.at(-1) === 'discriminator') out[key] = this.mapping(child, place);
      else out[key] = this.rewrite(child, this.into(place, key));
    }
    return out;
  }

  private into(place: Place, key: string | number): Place {
    return { ...place, source: [...place.source, key], at: [...place.at, key] };
  }

  /** A discriminator's mapping: each value is a schema reference. */
  private mapping(mapping: unknown, place: Place): unknown {
    if (mapping === null || typeof mapping !== 'object') return mapping;
    const entries = Object.entries(mapping).map(([tag, ref]) => {
      const toFile = typeof ref === 'string' && !ref.startsWith('#') && /#|\.(ya?ml|json)$/i.test(ref);
      if (!toFile) return [tag, ref]; // a local reference, or a schema name
      const resolved = this.resolve({ $ref: ref }, ref, {
        ...this.into(this.into(place, 'mapping'), tag),
        schema: true,
      });
      return [tag, (resolved as { $ref?: unknown }).$ref ?? ref];
    });
    return Object.fromEntries(entries);
  }

  /** The object holding `ref`: pointed at the hoisted schema, or replaced by the value it names. */
  private resolve(holder: Obj, ref: string, place: Place & { schema?: boolean }): unknown {
    const { file, pointer } = splitRef(ref, place.from.file);
    const { openapi, asyncapi } = this.specs;
    const pointTo = (inOpenapi: string) =>
      place.target === 'openapi' ? `#${inOpenapi}` : `${this.openapiFromAsyncapi}#${inOpenapi}`;
    const siblings = Object.fromEntries(Object.entries(holder).filter(([k]) => k !== '$ref'));
    const problem = (message: string) => {
      this.problems.push(refProblem(place.from, place.source, `\`$ref: ${ref}\` ${message}`));
      return holder;
    };
    if (file === openapi.file) return { ...holder, $ref: pointTo(pointer) };
    if (file === asyncapi.file) {
      if (place.target === 'asyncapi') return { ...holder, $ref: `#${pointer}` };
      return problem('refers into the AsyncAPI document from a schema of the OpenAPI one');
    }
    const doc = this.document(file);
    if (typeof doc === 'string') return problem(doc);
    if (typeof doc.value.openapi === 'string') {
      // The AsyncAPI document names its OpenAPI document by path (`./openapi.yaml`); given another (`--openapi`),
      // its references are read in the one given, by pointer.
      if (place.target === 'asyncapi') return { ...holder, $ref: pointTo(pointer) };
      return problem(
        `points into ${this.shown(file)}, an OpenAPI document other than the one given (${this.shown(openapi.file)})`,
      );
    }
    const target = valueAt(doc.value, pointer);
    if (target === undefined) return problem(`points to nothing in ${this.shown(file)}`);
    const key = `${file}#${pointer}`;
    const alias = this.aliases.get(key);
    const isAlias =
      alias !== undefined && place.target === 'openapi' && place.at.join('/') === `components/schemas/${alias}`;
    if (!isAlias && (place.schema || isSchemaPosition(place.at, place.target === 'asyncapi'))) {
      const name = alias ?? this.hoist(doc, pointer, target, problem);
      return { ...siblings, $ref: pointTo(toPointer(['components', 'schemas', name])) };
    }
    if (place.inlining.includes(key)) {
      return problem(`refers to itself (through ${place.inlining.map((k) => this.shown(k)).join(', ')})`);
    }
    if (isAlias) this.origins.set(alias, { doc, pointer });
    const inlined = this.rewrite(target, {
      ...place,
      from: doc,
      source: pointerTokens(pointer),
      inlining: [...place.inlining, key],
    });
    return inlined !== null && typeof inlined === 'object' && !Array.isArray(inlined)
      ? { ...inlined, ...siblings }
      : inlined;
  }

  /**
   * The document of `file`, read before bundling; or read now, for a file that only a discriminator mapping names
   * (the references read first are `$ref`s). Why it cannot be read, when it cannot.
   */
  private document(file: string): SourceDocument | string {
    const known = this.files.get(file);
    if (known) return known;
    try {
      const read = parseSourceDocument(file, readFileSync(file, 'utf8'));
      this.files.set(file, read);
      return read;
    } catch (error) {
      return `cannot be read: ${(error as Error).message}`;
    }
  }

  /** Adds the schema at `pointer` of `doc` to the component schemas (once) and returns its name. */
  private hoist(doc: SourceDocument, pointer: string, schema: unknown, problem: (message: string) => unknown): string {
    const key = `${doc.file}#${pointer}`;
    const name = pointerTokens(pointer).at(-1) ?? basename(doc.file).replace(/\.(ya?ml|json)$/i, '');
    const owner = this.owners.get(name);
    if (owner === key) return name;
    if (owner !== undefined || !/^[A-Za-z0-9._-]+$/.test(name)) {
      const why = owner === undefined ? 'is not a valid component name' : `is taken by ${this.shown(owner)}`;
      problem(`would become the component schema ${name}, which ${why}; rename one`);
      return name;
    }
    this.owners.set(name, key);
    this.origins.set(name, { doc, pointer });
    const at = ['components', 'schemas', name];
    this.hoisted[name] = this.rewrite(schema, {
      from: doc,
      source: pointerTokens(pointer),
      at,
      target: 'openapi',
      inlining: [],
    });
    return name;
  }

  /** A file (or `file#pointer`) as diagnostics show it: relative to the working directory. */
  private shown(place: string): string {
    const [file = '', pointer] = place.split('#');
    return pointer === undefined ? shownPath(file) : `${shownPath(file)}#${pointer}`;
  }
}
