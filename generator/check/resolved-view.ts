/**
 * A document as its specification's JSON Schema checks it: with its local references replaced by what they name, and
 * the way back from a place in that view to the text it came from.
 */
import { inOtherFormat, isForeignRef, isLiteral, type Path, valueAt } from '../load/refs.js';
import { pointerTokens, toPointer } from '../load/source-map.js';

type Obj = Record<string, unknown>;

/**
 * `root` with every local `$ref` object replaced by its target, resolved the same way (once per target, shared). A
 * reference into a target being resolved (a recursive schema), a dangling one, one to another file and one at a place
 * `keepsRef` names stay as they are; a schema in another format than JSON Schema that refers to another file or a
 * URL is left out.
 */
export function resolvedView(root: Obj, keepsRef: (path: Path) => boolean): Obj {
  const done = new Map<string, unknown>();
  const active = new Set<string>();
  const visit = (node: unknown, path: Path): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !keepsRef(path)) {
      const pointer = ref.slice(1);
      if (done.has(pointer)) return done.get(pointer);
      const target = valueAt(root, pointer);
      if (target === undefined || active.has(pointer)) return node;
      active.add(pointer);
      const resolved = visit(target, path);
      active.delete(pointer);
      done.set(pointer, resolved);
      return resolved;
    }
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...path, i]));
    const copy: Obj = {};
    for (const [key, child] of Object.entries(node)) {
      // A schema in another format than JSON Schema, written in a file or at a URL: nothing here can check it.
      if (inOtherFormat(node, key) && isForeignRef(child)) continue;
      copy[key] = isLiteral(node, path, key, child) ? child : visit(child, [...path, key]);
    }
    return copy;
  };
  return visit(root, []) as Obj;
}

/** The pointer, in the document as written, of the node at `tokens` of its resolved view: references followed. */
export function sourcePointer(root: Obj, tokens: readonly string[]): string {
  let at: (string | number)[] = [];
  let node: unknown = root;
  const follow = () => {
    for (let hops = 0; hops < 32; hops++) {
      const ref = (node as { $ref?: unknown } | null)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) return;
      const target = valueAt(root, ref.slice(1));
      if (target === undefined) return;
      node = target;
      at = pointerTokens(ref.slice(1));
    }
  };
  for (const token of tokens) {
    follow();
    node = node !== null && typeof node === 'object' ? (node as Obj)[token] : undefined;
    at.push(token);
  }
  follow();
  return toPointer(at);
}
