/**
 * What the structure checks share: the errors of a document against its specification's JSON Schema
 * (@cfworker/json-schema's output) that say something, and the local references that name nothing.
 */
import type { OutputUnit } from '@cfworker/json-schema';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { refsIn, valueAt } from '../load/refs.js';
import { pointerTokens, readSourceDocument, type SourceDocument, toPointer } from '../load/source-map.js';

/**
 * The errors that say something. Left out: those that only say a subschema failed (its own errors follow), an
 * object's failure to be a Reference object (it is written in full), "does not match oneOf / anyOf / if" where
 * a more precise error lies at or below the same place, a member refused only because something inside it failed
 * (`unevaluatedProperties` counts a failed member as not evaluated: its ancestors are then all "not allowed"), and a
 * `$ref` that is not a well-formed URI reference (`isRefFormat`).
 */
export function relevant(errors: readonly OutputUnit[]): OutputUnit[] {
  const kept = errors.filter(
    (e) => !WRAPPERS.has(e.keyword) && !(e.keyword === 'required' && e.error.includes('property "$ref"')),
  );
  const precise = kept.filter((e) => !SUMMARIES.has(e.keyword));
  return kept.filter((e) => {
    if (isRefFormat(e)) return false;
    if (SUMMARIES.has(e.keyword))
      return !precise.some((other) => isAtOrBelow(other.instanceLocation, e.instanceLocation));
    if (e.keyword !== 'false') return true;
    return !kept.some((other) => other.instanceLocation.startsWith(`${e.instanceLocation}/`));
  });
}

/**
 * A `$ref` that is not a well-formed URI reference (`#/channels/a~1{id}`, braces not percent-encoded): references are
 * read as the AsyncAPI parser and Redocly read them, and the reference check says when one names nothing. Such an
 * error still stands for the failed branches above it, which are then not reported either.
 */
function isRefFormat(e: OutputUnit): boolean {
  return e.keyword === 'format' && e.instanceLocation.endsWith('/$ref');
}

/** The keywords whose errors only say that a subschema failed, which reports its own. */
const WRAPPERS = new Set([
  '$ref',
  '$dynamicRef',
  'allOf',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'dependencies',
  'dependentSchemas',
]);

/** The keywords whose errors only say that no branch matched. */
const SUMMARIES = new Set(['oneOf', 'anyOf', 'if']);

/** True when `path` is `base` or inside it. */
function isAtOrBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** The sentence of an error at `pointer`: a member no schema allows is named. */
export function described(e: OutputUnit, pointer: string): string {
  if (e.keyword !== 'false') return e.error;
  return `property "${pointerTokens(pointer).at(-1) ?? ''}" is not allowed here`;
}

/** One diagnostic per place: the first found (the branches of an `anyOf` fail at the same place). */
export function dedupe(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    if (seen.has(d.pointer)) return false;
    seen.add(d.pointer);
    return true;
  });
}

/** A local `$ref` whose target does not exist, at the `$ref`, under `rule`. (The loader reads other files.) */
export function danglingRefs(doc: SourceDocument, rule: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const { ref, path } of refsIn(doc.value)) {
    if (!ref.startsWith('#') || valueAt(doc.value, ref.slice(1)) !== undefined) continue;
    found.push(structureError(doc, toPointer([...path, '$ref']), `$ref ${ref} points to nothing`, rule));
  }
  return found;
}

/** An error of `doc` at `pointer`. */
export function structureError(doc: SourceDocument, pointer: string, message: string, rule: string): Diagnostic {
  return { severity: 'error', file: doc.file, ...doc.locate(pointer), pointer, message, rule };
}

/** Reads `file` and runs `check` on it; a file that cannot be read or parsed is reported as the loader reports it. */
export async function checkFile(file: string, check: (doc: SourceDocument) => Diagnostic[]): Promise<Diagnostic[]> {
  try {
    return check(await readSourceDocument(file));
  } catch (error) {
    if (error instanceof InputError) return [...error.diagnostics];
    throw error;
  }
}
