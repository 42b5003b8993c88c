/** Where a node of a document really is once its references are followed: what diagnostics point at. */
import { type SourceDocument, splitRef, valueAt } from '../load/index.js';

/**
 * The pointer of the value at `pointer` with its local `$ref`s followed (a parameter declared in
 * `components.parameters`, a schema that is a component); `pointer` itself when it holds no reference, and the last
 * pointer reached when a reference leaves the document or leads nowhere.
 */
export function resolvedPointer(doc: SourceDocument, pointer: string): string {
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (valueAt(doc.value, at) as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string') return at;
    const target = splitRef(ref, doc.file);
    if (target.file !== doc.file || valueAt(doc.value, target.pointer) === undefined) return at;
    at = target.pointer;
  }
  return at;
}
