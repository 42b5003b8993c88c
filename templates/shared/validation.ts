/**
 * The validator contract shared by the generated validators, the client and the server runtime. It imports no value
 * of errors.ts: a validators module that a page loads with `import()` then brings no error classes of its own.
 */
import type { ValidationIssue } from './errors.js';

export type { ValidationIssue } from './errors.js';

/**
 * A precompiled validator: a type guard that keeps the issues of its last call in `errors`
 * (`null` after a valid value), like ajv's validate functions.
 */
export interface Validator<T> {
  (data: unknown): data is T;
  errors: ValidationIssue[] | null;
  /** The component schema or message this validator checks. */
  readonly schemaName: string;
}

/** The parts of an ajv error object this toolkit reads. */
export interface AjvErrorLike {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  /** ajv's params; a caller that knows them may add `allowedTags`, the values a discriminator's members take. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** A precompiled validate function: ajv's standalone code, which leaves its errors in `errors`. */
export interface CompiledValidate {
  (data: unknown): boolean;
  errors?: readonly AjvErrorLike[] | null;
}

/** `name` as a JSON pointer segment (RFC 6901: `~` is `~0`, `/` is `~1`). */
function pointerSegment(name: string): string {
  return name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name;
}

/** The member an ajv error names (`required`, `additionalProperties`, a missing or unknown discriminator tag). */
function memberOf(error: AjvErrorLike): unknown {
  // By keyword: each reads one kind of params object, where `params.x ?? params.y` would read them all.
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return error.params.missingProperty;
    case 'additionalProperties':
      return error.params.additionalProperty;
    case 'discriminator':
      return error.params.tag;
    default:
      return undefined;
  }
}

/**
 * Converts ajv errors to issues, each pointing at the member concerned when ajv names one, each problem once (a
 * message-level schema can report one twice). With the validated `data`, a message names the bad value where it is
 * short; an enum's message names the allowed values where there are few.
 */
export function issuesFromAjv(errors: readonly AjvErrorLike[] | null | undefined, data?: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!errors) return issues;
  const seen = new Set<string>();
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i] as AjvErrorLike;
    const member = memberOf(error);
    const pointer = typeof member === 'string' ? `${error.instancePath}/${pointerSegment(member)}` : error.instancePath;
    const message = messageOf(error, data);
    const key = `${pointer}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer, message, keyword: error.keyword });
  }
  return issues;
}

/** Most allowed values an enum's message lists. */
const LISTED_VALUES = 10;
/** Longest JSON text of a bad value a message quotes. */
const QUOTED_LENGTH = 40;

/** ajv's message, made to name the allowed values (enum, const, discriminator tag) and the bad value when short. */
function messageOf(error: AjvErrorLike, data: unknown): string {
  const base = error.message ?? error.keyword;
  switch (error.keyword) {
    case 'enum': {
      const allowed = error.params.allowedValues;
      const listed =
        Array.isArray(allowed) && allowed.length <= LISTED_VALUES
          ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
          : base;
      return withValue(listed, valueAt(data, error.instancePath));
    }
    case 'const':
      return withValue(`must be ${JSON.stringify(error.params.allowedValue)}`, valueAt(data, error.instancePath));
    case 'discriminator': {
      const tag = String(error.params.tag);
      // ajv says `tag "type" must be string` of a value without the tag too.
      if (error.params.tagValue === undefined) return `must have required property '${tag}'`;
      const known = Array.isArray(error.params.allowedTags) ? error.params.allowedTags : [];
      const listed = known.length > 0 ? `: one of ${known.map((v) => JSON.stringify(v)).join(', ')}` : '';
      return `${JSON.stringify(error.params.tagValue)} is not a known "${tag}"${listed}`;
    }
    case 'type':
    case 'format':
    case 'pattern':
      return withValue(base, valueAt(data, error.instancePath));
    default:
      return base;
  }
}

/** `message, got <value>` when the value is known and its JSON is short. */
function withValue(message: string, value: { found: unknown } | undefined): string {
  if (value === undefined) return message;
  const text = JSON.stringify(value.found);
  return text !== undefined && text.length <= QUOTED_LENGTH ? `${message}, got ${text}` : message;
}

/** The value at a JSON pointer of `data`, if there is one. */
function valueAt(data: unknown, pointer: string): { found: unknown } | undefined {
  if (data === undefined) return undefined;
  let node: unknown = data;
  for (const token of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return { found: node };
}

/**
 * Wraps precompiled validate functions as a `Validator<T>` named `schemaName`. `validate` is compiled with
 * `allErrors` and lists every problem; `check`, when the schema has one, stops at the first problem and runs
 * first, so a valid value costs no more than the verdict. The issues are built from ajv's errors when the value is
 * refused, and `errors` is a plain property: no accessor runs when it is read.
 */
export function fromCompiled<T>(
  validate: CompiledValidate,
  schemaName: string,
  check?: CompiledValidate,
): Validator<T> {
  const validator = ((data: unknown): data is T => {
    const valid = check === undefined ? validate(data) : check(data) || validate(data);
    if (valid) {
      validator.errors = null;
      return true;
    }
    validator.errors = issuesFromAjv(validate.errors, data);
    return false;
  }) as Validator<T>;
  validator.errors = null;
  Object.defineProperty(validator, 'schemaName', { value: schemaName, enumerable: true });
  return validator;
}
