/**
 * Appends entries to block collections of a YAML text without re-printing it: each new entry is a copy of an
 * existing sibling's lines with names substituted, inserted after that sibling, so comments, quoting and layout
 * of the rest stay exactly as written.
 */
import { isMap, isSeq, parseDocument } from 'yaml';

/** One entry to add: copy the sibling at `path`/`sibling` (a key or an index), replacing each `from` with `to`. */
export interface Append {
  /** Path of the collection (keys and indexes). */
  readonly path: readonly (string | number)[];
  /** The sibling to copy: a map key or a sequence index. */
  readonly sibling: string | number;
  /** Whole-word replacements made in the copy. */
  readonly replace: readonly (readonly [from: string, to: string])[];
}

/** The text with every entry added; throws with the path when a collection is missing or written in flow style. */
export function appendEntries(text: string, appends: readonly Append[]): string {
  const doc = parseDocument(text, { keepSourceTokens: false });
  const inserts: { offset: number; text: string }[] = [];
  for (const append of appends) {
    const node = doc.getIn(append.path, true);
    const where = append.path.join('.');
    if (!(isMap(node) || isSeq(node)) || node.flow) throw new Error(`${where} is not a block collection`);
    const range = siblingRange(node, append.sibling);
    if (range === undefined) throw new Error(`${where} has no entry ${append.sibling}`);
    const start = text.lastIndexOf('\n', range[0] - 1) + 1;
    const lineEnd = text.indexOf('\n', Math.max(range[1] - 1, start));
    const end = lineEnd === -1 ? text.length : lineEnd + 1;
    let copy = text.slice(start, end);
    if (!copy.endsWith('\n')) copy += '\n';
    for (const [from, to] of append.replace) copy = copy.replace(wholeWord(from), to);
    inserts.push({ offset: end, text: copy });
  }
  let out = text;
  // Later offsets first, so earlier ones stay valid; entries at one offset keep their order.
  const ordered = inserts.map((insert, index) => ({ ...insert, index }));
  ordered.sort((a, b) => b.offset - a.offset || b.index - a.index);
  for (const insert of ordered) {
    const before = out.slice(0, insert.offset);
    out = `${before}${before.endsWith('\n') || before === '' ? '' : '\n'}${insert.text}${out.slice(insert.offset)}`;
  }
  return out;
}

/** The source range (start, end of value) of a map entry or sequence item. */
function siblingRange(node: unknown, sibling: string | number): [number, number] | undefined {
  if (isSeq(node)) {
    const item = node.items[Number(sibling)] as { range?: [number, number, number] } | undefined;
    return item?.range ? [item.range[0], item.range[1]] : undefined;
  }
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === sibling);
  const key = pair?.key as { range?: [number, number, number] } | undefined;
  const value = pair?.value as { range?: [number, number, number] } | undefined;
  return key?.range ? [key.range[0], value?.range?.[1] ?? key.range[1]] : undefined;
}

/** `name` as a whole word: not inside a longer name of letters, digits, `_`, `.` or `-`. */
function wholeWord(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-]|\\.\\w)`, 'g');
}
