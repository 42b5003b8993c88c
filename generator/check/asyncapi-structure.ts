/**
 * What generation needs of an AsyncAPI document: a version it knows, a structure valid against the published AsyncAPI
 * JSON Schema of that version (@asyncapi/specs, the schemas the AsyncAPI parser checks with), and local references
 * that name something. `casi check` runs the AsyncAPI parser's whole ruleset instead (lint-asyncapi.ts). The schema
 * is large and the document small: @cfworker/json-schema walks the document through it without compiling it first.
 */
import type * as AsyncApiSpecs from '@asyncapi/specs';
import type * as CfworkerJsonSchema from '@cfworker/json-schema';
import type { Diagnostic } from '../diagnostics.js';
import type { Path } from '../load/refs.js';
import { pointerTokens, type SourceDocument } from '../load/source-map.js';
import { requirePackage } from '../require-package.js';
import { resolvedView, sourcePointer } from './resolved-view.js';
import { checkFile, danglingRefs, dedupe, described, relevant, structureError } from './schema-findings.js';

const { schemas } = requirePackage('@asyncapi/specs') as typeof AsyncApiSpecs;
const { Validator } = requirePackage('@cfworker/json-schema') as typeof CfworkerJsonSchema;

type Version = keyof typeof schemas;

/** One validator per version, for the process. */
const validators = new Map<Version, CfworkerJsonSchema.Validator>();

/** Reads `file` and checks it; a file that cannot be read or parsed is reported as the loader reports it. */
export function lintAsyncApiStructure(file: string): Promise<Diagnostic[]> {
  return checkFile(file, checkAsyncApiStructure);
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
    return [structureError(doc, version === undefined ? '' : '/asyncapi', message, 'asyncapi/version')];
  }
  const major = version.split('.')[0];
  const view = resolvedView(doc.value, (path) => major === '3' && mustStayReference(path));
  const { errors } = validatorFor(version as Version).validate(view);
  const structural = relevant(errors).map((e) => {
    const pointer = sourcePointer(doc.value, pointerTokens(e.instanceLocation));
    return structureError(doc, pointer, described(e, pointer), 'asyncapi/structure');
  });
  return [...dedupe(structural), ...danglingRefs(doc, 'asyncapi/invalid-ref')];
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
