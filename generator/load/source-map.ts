/** Parses YAML with positions, so that any JSON pointer can be turned into a line and column. */
import { readFile } from 'node:fs/promises';
import type * as JsYaml from 'js-yaml';
import type * as Yaml from 'yaml';
import type { CST } from 'yaml';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';

const { CORE_SCHEMA, load } = requirePackage('js-yaml') as typeof JsYaml;
/** `yaml`, which keeps positions: loaded on the first parse that needs them (a diagnostic, or a text js-yaml refuses). */
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
 * Parses YAML text of `file`; see readSourceDocument. The value comes from js-yaml (YAML 1.2 core schema, several
 * times faster than a parse that keeps positions); the positions are parsed with `yaml` on the first `locate`,
 * which only a diagnostic needs. A text js-yaml refuses is parsed with `yaml` at once, for its file:line errors.
 */
export function parseSourceDocument(file: string, text: string): SourceDocument {
  let value: unknown;
  let positions: Positions | undefined;
  try {
    value = load(text, { schema: CORE_SCHEMA, filename: file });
  } catch {
    positions = parsePositions(file, text, true);
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
    positions ??= positionsOrStart(file, text);
    return positions.locate(pointer);
  };
  return { file, text, value: value as Record<string, unknown>, locate };
}

/** Positions for a text js-yaml has read; should `yaml` refuse it, every pointer is placed at the start. */
function positionsOrStart(file: string, text: string): Positions {
  try {
    return parsePositions(file, text, false);
  } catch {
    return { value: undefined, locate: () => ({ line: 1, column: 1 }) };
  }
}

/** The document parsed with positions: its value and where each pointer is. */
interface Positions {
  readonly value: unknown;
  locate(pointer: string): { line: number; column: number };
}

/**
 * Where each pointer is in `text`, from `yaml`'s concrete syntax tree (its parse before composing, which is most of
 * the work). `read`: js-yaml refused the text, so `yaml` also composes it, for its file:line errors and the value.
 */
function parsePositions(file: string, text: string, read: boolean): Positions {
  yamlPackage ??= requirePackage('yaml') as typeof Yaml;
  const { LineCounter, Parser, parseDocument } = yamlPackage;
  const lineCounter = new LineCounter();
  let value: unknown;
  if (read) {
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) throw syntaxErrors(file, lineCounter, doc.errors);
    value = doc.toJS({ maxAliasCount: 1000 });
  }
  let root: CST.Token | undefined;
  // Composing has counted the lines already.
  for (const token of new Parser(read ? undefined : lineCounter.addNewLine).parse(text)) {
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
