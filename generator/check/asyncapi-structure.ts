/**
 * What generation needs of an AsyncAPI document: a version it knows, a structure valid against the published AsyncAPI
 * JSON Schema of that version (@asyncapi/specs, the schemas the AsyncAPI parser checks with), and local references
 * that name something. `casi check` runs the AsyncAPI parser's whole ruleset instead (lint-asyncapi.ts).
 */
import type * as AsyncApiSpecs from '@asyncapi/specs';
import type AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { formats } from '../../templates/shared/formats.js';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { type Path, refsIn, valueAt } from '../load/refs.js';
import { pointerTokens, readSourceDocument, type SourceDocument, toPointer } from '../load/source-map.js';
import { requirePackage } from '../require-package.js';
import { resolvedView, sourcePointer } from './resolved-view.js';

const { schemas } = requirePackage('@asyncapi/specs') as typeof AsyncApiSpecs;
const Ajv = (requirePackage('ajv') as typeof AjvModule).default;

type Version = keyof typeof schemas;

/** One compiled validator per version, for the process. */
const validators = new Map<Version, ValidateFunction>();

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
export function checkAsyncApiStructure(doc: SourceDocument): Diagnostic[] {
  const version = doc.value.asyncapi;
  if (typeof version !== 'string' || !(version in schemas)) {
    const known = Object.keys(schemas).join(', ');
    const message =
      typeof version === 'string'
        ? `AsyncAPI ${version} is not a version casi reads (${known})`
        : 'not an AsyncAPI document: it has no `asyncapi` version (a string such as "3.0.0")';
    return [diagnostic(doc, version === undefined ? '' : '/asyncapi', message, 'asyncapi/version')];
  }
  const validate = validatorFor(version as Version);
  const major = version.split('.')[0];
  const view = resolvedView(doc.value, (path) => major === '3' && mustStayReference(path));
  validate(view);
  const structural = relevant(validate.errors ?? []).map((e) => {
    const tokens = pointerTokens(e.instancePath);
    const { pointer, message } = described(e, tokens);
    return diagnostic(doc, sourcePointer(doc.value, pointer), message, 'asyncapi/structure');
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

/** The validator of a version's schema, compiled once. */
function validatorFor(version: Version): ValidateFunction {
  const known = validators.get(version);
  if (known !== undefined) return known;
  const schema = structuredClone(schemas[version]) as { definitions: Record<string, unknown> };
  delete schema.definitions['http://json-schema.org/draft-07/schema']; // ajv has the draft-07 meta-schema itself
  // The fastest to compile: each definition its own function, no pass over the generated code.
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    allowUnionTypes: true,
    unicodeRegExp: false,
    logger: false,
    inlineRefs: false,
    code: { optimize: false },
  });
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  const validate = ajv.compile(schema);
  validators.set(version, validate);
  return validate;
}

/**
 * The errors that say something: an object's failure to be a Reference object (it is written in full) is dropped, and
 * so is "must match a schema in oneOf / anyOf / then" where a more precise error lies at or below the same place.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept = errors.filter((e) => !(e.keyword === 'required' && e.params.missingProperty === '$ref'));
  const precise = kept.filter((e) => !SUMMARIES.has(e.keyword));
  return kept.filter(
    (e) => !SUMMARIES.has(e.keyword) || !precise.some((other) => isAtOrBelow(other.instancePath, e.instancePath)),
  );
}

/** The keywords whose errors only say that some branch failed. */
const SUMMARIES = new Set(['oneOf', 'anyOf', 'if']);

/** True when `path` is `base` or inside it. */
function isAtOrBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** The place (in the resolved view) and the sentence of an error. */
function described(e: ErrorObject, tokens: string[]): { pointer: string[]; message: string } {
  const { params } = e;
  switch (e.keyword) {
    case 'additionalProperties':
      return {
        pointer: [...tokens, String(params.additionalProperty)],
        message: `property "${String(params.additionalProperty)}" is not allowed here`,
      };
    case 'required':
      return { pointer: tokens, message: `"${String(params.missingProperty)}" is required here` };
    case 'enum':
      return {
        pointer: tokens,
        message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    default:
      return { pointer: tokens, message: e.message ?? `fails the ${e.keyword} rule` };
  }
}

/** One diagnostic per place: the first, as ajv found them (the branches of an `anyOf` fail at the same place). */
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
