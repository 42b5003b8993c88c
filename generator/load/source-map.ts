/** Parses YAML with positions, so that any JSON pointer can be turned into a line and column. */
import { readFile } from 'node:fs/promises';
import type * as JsYaml from 'js-yaml';
import type * as Yaml from 'yaml';
import type { Node } from 'yaml';
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
    positions ??= positionsOrStart(file, text);
    return positions.locate(pointer);
  };
  return { file, text, value: value as Record<string, unknown>, locate };
}

/** Positions for a text js-yaml has read; should `yaml` refuse it, every pointer is placed at the start. */
function positionsOrStart(file: string, text: string): Positions {
  try {
    return parsePositions(file, text);
  } catch {
    return { value: undefined, locate: () => ({ line: 1, column: 1 }) };
  }
}

/** The document parsed with positions: its value and where each pointer is. */
interface Positions {
  readonly value: unknown;
  locate(pointer: string): { line: number; column: number };
}

/** Parses with `yaml`, keeping every node's position; a syntax error becomes an InputError naming its lines. */
function parsePositions(file: string, text: string): Positions {
  yamlPackage ??= requirePackage('yaml') as typeof Yaml;
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlPackage;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const diagnostics: Diagnostic[] = doc.errors.map((e) => {
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
    throw new InputError(`${file} is not valid YAML`, diagnostics);
  }
  const locate = (pointer: string) => {
    let node: Node | null | undefined = doc.contents as Node | null;
    let found: Node | null | undefined = node;
    for (const token of pointerTokens(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === token);
        node = pair?.value as Node | null | undefined;
        if (pair && !node) node = pair.key as Node;
      } else if (isSeq(node)) {
        node = node.items[Number(token)] as Node | undefined;
      } else {
        node = undefined;
      }
      if (!node) break;
      found = node;
    }
    const offset = found?.range?.[0] ?? 0;
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, locate };
}
