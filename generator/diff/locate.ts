/**
 * Where a change is written: the diff library reports paths through the documents with every `$ref` followed and
 * every `allOf` merged; this walks such a path through the source, following the same references (into the other
 * document too) and trying each `allOf`/`oneOf`/`anyOf` branch, to the JSON pointer of the node as written.
 */
import { splitRef, valueAt } from '../load/refs.js';
import { pointerTokens, type SourceDocument, toPointer } from '../load/source-map.js';

/**
 * A node as written: its document and pointer tokens; `complete` when the whole path was found; `branches`, how many
 * `oneOf`/`anyOf` alternatives the route went through (the fewer, the more directly the path names the node).
 */
export interface SourcePlace {
  readonly doc: SourceDocument;
  readonly tokens: readonly string[];
  readonly complete: boolean;
  readonly branches: number;
}

const COMBINATORS = ['allOf', 'oneOf', 'anyOf'] as const;

/** The most `$ref`s followed along one route (a guard against reference cycles). */
const MAX_REFS = 64;

/**
 * Walks `path` from `tokens` in `doc`; `docs` are the documents a `$ref` may lead into. Returns the place of the
 * whole path when it exists, else of its deepest part that does.
 */
export function sourcePlace(
  docs: readonly SourceDocument[],
  doc: SourceDocument,
  tokens: readonly string[],
  path: readonly (string | number)[],
): SourcePlace {
  return walk(
    docs,
    { doc, tokens, complete: path.length === 0, branches: 0 },
    valueAt(doc.value, toPointer(tokens)),
    path,
    0,
  );
}

function walk(
  docs: readonly SourceDocument[],
  at: SourcePlace,
  value: unknown,
  rest: readonly (string | number)[],
  followed: number,
): SourcePlace {
  let place = at;
  let node = value;
  let refs = followed;
  for (let ref = refOf(node); ref !== undefined && refs++ < MAX_REFS; ref = refOf(node)) {
    const { file, pointer } = splitRef(ref, place.doc.file);
    const target = docs.find((d) => d.file === file);
    if (target === undefined) break;
    place = { ...place, doc: target, tokens: pointerTokens(pointer) };
    node = valueAt(target.value, pointer);
  }
  if (rest.length === 0) return { ...place, complete: true };
  if (node === null || typeof node !== 'object') return { ...place, complete: false };
  const head = String(rest[0]);
  const record = node as Record<string, unknown>;
  if (Object.hasOwn(record, head)) {
    const branches = place.branches + (head === 'oneOf' || head === 'anyOf' ? 1 : 0);
    return walk(docs, { ...place, tokens: [...place.tokens, head], branches }, record[head], rest.slice(1), refs);
  }
  let deepest: SourcePlace = { ...place, complete: false };
  // The library may wrap a schema in a combinator of its own (a `oneOf` branch with siblings read as `allOf`).
  if ((COMBINATORS as readonly string[]).includes(head) && typeof rest[1] === 'number') {
    const found = walk(docs, place, node, rest.slice(2), refs);
    if (found.complete) return found;
    deepest = found;
  }
  for (const combinator of COMBINATORS) {
    const branches = record[combinator];
    if (!Array.isArray(branches)) continue;
    for (const [i, branch] of branches.entries()) {
      const tokens = [...place.tokens, combinator, String(i)];
      const branches = place.branches + (combinator === 'allOf' ? 0 : 1);
      const found = walk(docs, { ...place, tokens, branches }, branch, rest, refs);
      if (found.complete) return found;
      if (found.tokens.length > deepest.tokens.length) deepest = found;
    }
  }
  return deepest;
}

function refOf(node: unknown): string | undefined {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  return typeof ref === 'string' ? ref : undefined;
}
