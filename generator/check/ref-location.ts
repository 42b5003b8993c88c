/**
 * Places a reference the AsyncAPI parser could not resolve: it reports `'<pointer>' does not exist @ '<file>'` at
 * the start of the document (its path is in the other file), so the diagnostic is moved to the `$ref` that names
 * that target.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { SourceDocument } from '../load/index.js';
import { toPointer } from '../load/source-map.js';

const MISSING = /^'(#[^']*)' does not exist @ '([^']*)'/;

/** `diagnostic` at the `$ref` of `doc` it is about, when it is an unresolved reference found there; else as is. */
export function atUnresolvedRef(diagnostic: Diagnostic, doc: SourceDocument): Diagnostic {
  const missing = MISSING.exec(diagnostic.message);
  if (missing === null || diagnostic.file !== doc.file || diagnostic.line > 1) return diagnostic;
  const [, target = '', targetFile = ''] = missing;
  const base = targetFile.split(/[\\/]/).pop() ?? '';
  const pointer = findRef(doc.value, [], (ref) => ref.endsWith(target) && (ref.startsWith('#') || ref.includes(base)));
  return pointer === undefined ? diagnostic : { ...diagnostic, pointer, ...doc.locate(pointer) };
}

/** The pointer of the first `$ref` under `value` that `matches`, depth first in document order. */
function findRef(value: unknown, tokens: (string | number)[], matches: (ref: string) => boolean): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const node = value as Record<string, unknown>;
  if (typeof node.$ref === 'string' && matches(node.$ref)) return toPointer([...tokens, '$ref']);
  for (const [key, child] of Object.entries(node)) {
    const found = findRef(child, [...tokens, Array.isArray(value) ? Number(key) : key], matches);
    if (found !== undefined) return found;
  }
  return undefined;
}
