/**
 * What generation needs of an AsyncAPI document: a version it knows, a structure valid against the published AsyncAPI
 * JSON Schema of that version (@asyncapi/specs, the schemas the AsyncAPI parser checks with), and local references
 * that name something. `casi check` runs the AsyncAPI parser's whole ruleset instead (lint-asyncapi.ts). The schema
 * is large and the document small: @cfworker/json-schema walks the document through it without compiling it first.
 */
import type * as AsyncApiSpecs from '@asyncapi/specs';
import type * as CfworkerJsonSchema from '@cfworker/json-schema';
import type { OutputUnit } from '@cfworker/json-schema';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { type Path, refsIn, valueAt } from '../load/refs.js';
import { pointerTokens, readSourceDocument, type SourceDocument, toPointer } from '../load/source-map.js';
import { requirePackage } from '../require-package.js';
import { resolvedView, sourcePointer } from './resolved-view.js';

const { schemas } = requirePackage('@asyncapi/specs') as typeof AsyncApiSpecs;
const { Validator } = requirePackage('@cfworker/json-schema') as typeof CfworkerJsonSchema;

type Version = keyof typeof schemas;

/** One validator per version, for the process. */
const validators = new Map<Version, CfworkerJsonSchema.Validator>();

/** Reads `file` and checks it; a file that cannot be read or parsed is reported as the loader reports it. */
export async function lintAsyncApiStructure(file: string): Promise<Diagnostic[]> {
  try {
    return checkAsyncApiStructure(await readSourceDocument(file));
  } catch (error) {
    if (error instanceof InputError) return [...error.diagnostics];
    throw error;
  }
}

/** The checks above, as diagnostics of `doc`. */
function checkAsyncApiStructure(doc: SourceDocument): Diagnostic[] {
  const version = doc.value.asyncapi;
  if (typeof version !== 'string' || !(version in schemas)) {
    const known = Object.keys(schemas).join(', ');
    const message =
      typeof version === 'string'
        ? `AsyncAPI ${version} is not a version casi reads (${known})`
        : 'not an AsyncAPI document: it has no `asyncapi` version (a string such as "3.0.0")';
    return [diagnostic(doc, version === undefined ? '' : '/asyncapi', message, 'asyncapi/version')];
  }
  const major = version.split('.')[0];
  const view = resolvedView(doc.value, (path) => major === '3' && mustStayReference(path));
  const { errors } = validatorFor(version as Version).validate(view);
  const structural = relevant(errors).map((e) => {
    const pointer = sourcePointer(doc.value, pointerTokens(e.instanceLocation));
    return diagnostic(doc, pointer, described(e, pointer), 'asyncapi/structure');
  });
  return [...dedupe(structural), ...danglingRefs(doc)];
}

/**
 * The places of an AsyncAPI 3 document whose schema asks for a Reference object, not what it names: a channel's
 * servers, an operation's (or reply's) channel and messages. (The parser edits its copy of the schema instead.)
 */
function mustStayReference(path: Path): boolean {
  const [last, parent] = [path.at(-1), path.at(-2)];
  if (last === 'channel') return true;
  return typeof last === 'number' && (parent === 'servers' || parent === 'messages');
}

/** The validator of a version's schema, made once. */
function validatorFor(version: Version): CfworkerJsonSchema.Validator {
  let validator = validators.get(version);
  if (validator === undefined) {
    validator = new Validator(schemas[version] as CfworkerJsonSchema.Schema, '7', false);
    validators.set(version, validator);
  }
  return validator;
}

/**
 * The errors that say something. Left out: those that only say a subschema failed (its own errors follow), an
 * object's failure to be a Reference object (it is written in full), and "does not match oneOf / anyOf / if" where
 * a more precise error lies at or below the same place.
 */
function relevant(errors: readonly OutputUnit[]): OutputUnit[] {
  const kept = errors.filter(
    (e) => !WRAPPERS.has(e.keyword) && !(e.keyword === 'required' && e.error.includes('property "$ref"')),
  );
  const precise = kept.filter((e) => !SUMMARIES.has(e.keyword));
  return kept.filter(
    (e) =>
      !SUMMARIES.has(e.keyword) || !precise.some((other) => isAtOrBelow(other.instanceLocation, e.instanceLocation)),
  );
}

/** The keywords whose errors only say that a subschema failed, which reports its own. */
const WRAPPERS = new Set([
  '$ref',
  'allOf',
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'additionalItems',
  'dependencies',
]);

/** The keywords whose errors only say that no branch matched. */
const SUMMARIES = new Set(['oneOf', 'anyOf', 'if']);

/** True when `path` is `base` or inside it. */
function isAtOrBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** The sentence of an error at `pointer`: a member no schema allows is named. */
function described(e: OutputUnit, pointer: string): string {
  if (e.keyword !== 'false') return e.error;
  return `property "${pointerTokens(pointer).at(-1) ?? ''}" is not allowed here`;
}

/** One diagnostic per place: the first found (the branches of an `anyOf` fail at the same place). */
function dedupe(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    if (seen.has(d.pointer)) return false;
    seen.add(d.pointer);
    return true;
  });
}

/** A local `$ref` whose target does not exist, at the `$ref`. (The loader reads references to other files.) */
function danglingRefs(doc: SourceDocument): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const { ref, path } of refsIn(doc.value)) {
    if (!ref.startsWith('#') || valueAt(doc.value, ref.slice(1)) !== undefined) continue;
    found.push(diagnostic(doc, toPointer([...path, '$ref']), `$ref ${ref} points to nothing`, 'asyncapi/invalid-ref'));
  }
  return found;
}

/** An error of `doc` at `pointer`. */
function diagnostic(doc: SourceDocument, pointer: string, message: string, rule: string): Diagnostic {
  return { severity: 'error', file: doc.file, ...doc.locate(pointer), pointer, message, rule };
}
