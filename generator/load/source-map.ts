/** Parses YAML with positions, so that any JSON pointer can be turned into a line and column. */
import { readFile } from 'node:fs/promises';
import type * as JsYaml from 'js-yaml';
import type * as Yaml from 'yaml';
import type { CST } from 'yaml';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';

const { CORE_SCHEMA, load } = requirePackage('js-yaml') as typeof JsYaml;
/** `yaml`, for the errors of a text js-yaml refuses: loaded then only. */
let yamlPackage: typeof Yaml | undefined;

/** Where a node is written: its line and column, and its file and pointer when not those asked about. */
export interface Located {
  readonly file?: string;
  readonly pointer?: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The place of the node at `pointer` of `doc`, as diagnostics give it: the file, pointer, line and column where it is
 * written (see `locate`).
 */
export function placeOf(doc: SourceDocument, pointer: string): Required<Located> {
  return { file: doc.file, pointer, ...doc.locate(pointer) };
}

/** A parsed YAML document with its positions. */
export interface SourceDocument {
  readonly file: string;
  readonly text: string;
  readonly value: Record<string, unknown>;
  /**
   * Line and column (1-based) of the node at `pointer`, or of its closest existing parent; and the file and pointer
   * where it is written, when it was copied in from another file (load/bundle.ts) or another place
   * (load/pointed-schemas.ts).
   */
  locate(pointer: string): Located;
  /** Set on the empty stand-in for a document that was not given (see load/index.ts). */
  readonly absent?: true;
}

/** Splits an RFC 6901 pointer (`/a/b~1c`) into its unescaped tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return [];
  return pointer
    .replace(/^#/, '')
    .slice(1)
    .split('/')
    .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Joins tokens into an RFC 6901 pointer. */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Why a file could not be read, in a plain sentence for the common cases, else the system's message. */
function unreadable(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
      return 'permission denied';
    default:
      return (error as Error).message;
  }
}

/** Reads and parses a YAML (or JSON) file; a syntax error becomes an InputError with file:line diagnostics. */
export async function readSourceDocument(file: string): Promise<SourceDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${unreadable(error)}`);
  }
  return parseSourceDocument(file, text);
}

/**
 * Parses YAML text of `file`; see readSourceDocument. The value comes from js-yaml (YAML 1.2 core schema); the
 * positions come from a second js-yaml read on the first `locate`, which only a diagnostic needs. A text js-yaml
 * refuses is parsed with `yaml` at once, for its file:line errors (and its positions, should `yaml` read it).
 */
export function parseSourceDocument(file: string, text: string): SourceDocument {
  let value: unknown;
  let positions: Positions | undefined;
  try {
    value = load(text, { schema: CORE_SCHEMA, filename: file });
  } catch {
    positions = parsePositions(file, text);
    value = positions.value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${file} must hold a mapping at the top level`, [
      {
        severity: 'error',
        file,
        line: 1,
        column: 1,
        pointer: '',
        message: 'the document is not a mapping',
        rule: 'yaml',
      },
    ]);
  }
  const locate = (pointer: string) => {
    positions ??= nodePositions(text);
    return positions.locate(pointer);
  };
  return { file, text, value: value as Record<string, unknown>, locate };
}

/** A node as js-yaml's `listener` reports it: where it opens, what it closes as, and the nodes read inside it. */
interface YamlNode {
  readonly at: number;
  readonly children: YamlNode[];
  kind?: string | null;
  value?: unknown;
}

/**
 * Positions of a text js-yaml has read, from a second read with its `listener`: a mapping's nodes come as key,
 * value, key, value; a node that js-yaml first tried as a block mapping's key (a scalar, a flow collection) comes
 * wrapped in one with the same value.
 */
function nodePositions(text: string): Positions {
  const root: YamlNode = { at: 0, children: [] };
  const open = [root];
  load(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === 'open') {
        const node: YamlNode = { at: state.position, children: [] };
        open.at(-1)?.children.push(node);
        open.push(node);
      } else {
        const node = open.pop() as YamlNode;
        node.kind = state.kind;
        node.value = state.result;
      }
    },
  });
  // js-yaml reads the text without its byte-order mark.
  const offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const locate = (pointer: string) => {
    let found = unwrapped(root.children[0]);
    for (let node = found, i = 0, tokens = pointerTokens(pointer); node && i < tokens.length; i++) {
      node = unwrapped(childNode(node, tokens[i] as string));
      if (node) found = node;
    }
    // A node with no content (`key:` and nothing: no kind, no value) is placed where js-yaml opened it, after its key.
    const opened = (found?.at ?? 0) + offset;
    const at = found?.kind || found?.value != null ? contentStart(text, opened) : opened;
    const line = lastAtMost(lineStarts, at);
    return { line: line + 1, column: at - (lineStarts[line] as number) + 1 };
  };
  return { value: undefined, locate };
}

/** The node a wrapper stands for (see nodePositions). */
function unwrapped(node: YamlNode | undefined): YamlNode | undefined {
  let inner = node;
  while (inner?.children.length === 1 && typeof inner.value === 'object' && inner.children[0]?.value === inner.value) {
    inner = inner.children[0];
  }
  return inner;
}

/** The value node of a mapping's member `key`, or a sequence's item `key`. */
function childNode(node: YamlNode, key: string): YamlNode | undefined {
  if (node.kind === 'sequence') return node.children[Number(key)];
  if (node.kind !== 'mapping') return undefined;
  for (let i = 0; i + 1 < node.children.length; i += 2) {
    if (String(node.children[i]?.value) === key) return node.children[i + 1];
  }
  return undefined;
}

/** Where a node's content starts: js-yaml opens it before the spaces, comments, anchor and tag that lead to it. */
function contentStart(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const c = text[at] as string;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') at++;
    else if (c === '#') at = text.indexOf('\n', at) === -1 ? text.length : text.indexOf('\n', at);
    else if (c === '&' || c === '!') while (at < text.length && !' \t\r\n'.includes(text[at] as string)) at++;
    else break;
  }
  return at;
}

/** The index of the last item of the sorted `values` at most `value` (0 when none is). */
function lastAtMost(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((values[middle] as number) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The document parsed with positions: its value and where each pointer is. */
interface Positions {
  readonly value: unknown;
  locate(pointer: string): { line: number; column: number };
}

/**
 * A text js-yaml refuses, read by `yaml`: its file:line errors, or, should it read the text, the value and where each
 * pointer is (from its concrete syntax tree).
 */
function parsePositions(file: string, text: string): Positions {
  yamlPackage ??= requirePackage('yaml') as typeof Yaml;
  const { LineCounter, Parser, parseDocument } = yamlPackage;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) throw syntaxErrors(file, lineCounter, doc.errors);
  const value = doc.toJS({ maxAliasCount: 1000 });
  let root: CST.Token | undefined;
  for (const token of new Parser().parse(text)) {
    if (token.type === 'document') {
      root = token.value;
      break;
    }
  }
  const locate = (pointer: string) => {
    let found = root;
    for (let node = root, i = 0, tokens = pointerTokens(pointer); node && i < tokens.length; i++) {
      node = childToken(node, tokens[i] as string);
      if (node) found = node;
    }
    const pos = lineCounter.linePos(found?.offset ?? 0);
    return { line: pos.line, column: pos.col };
  };
  return { value, locate };
}

/** The token of a mapping's member `key` (its key, when it has no value) or of a sequence's item `key`. */
function childToken(node: CST.Token, key: string): CST.Token | undefined {
  if (node.type !== 'block-map' && node.type !== 'block-seq' && node.type !== 'flow-collection') return undefined;
  const isSequence = node.type === 'block-seq' || (node.type === 'flow-collection' && node.start.source === '[');
  if (isSequence) return node.items[Number(key)]?.value ?? undefined;
  const { resolveAsScalar } = (yamlPackage as typeof Yaml).CST;
  for (const item of node.items) {
    const name = item.key ? resolveAsScalar(item.key as CST.FlowScalar)?.value : undefined;
    if (name === key) return item.value ?? item.key ?? undefined;
  }
  return undefined;
}

/** `yaml`'s syntax errors as an InputError naming their lines. */
function syntaxErrors(file: string, lineCounter: Yaml.LineCounter, errors: readonly Yaml.YAMLError[]): InputError {
  const diagnostics: Diagnostic[] = errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    return {
      severity: 'error',
      file,
      line: pos.line,
      column: pos.col,
      pointer: '',
      message: e.message.split('\n')[0] ?? e.message,
      rule: 'yaml',
    };
  });
  return new InputError(`${file} is not valid YAML`, diagnostics);
}
