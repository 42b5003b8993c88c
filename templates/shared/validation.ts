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

/** Converts ajv errors to issues, each pointing at the member concerned when ajv names one. */
export function issuesFromAjv(errors: readonly AjvErrorLike[] | null | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!errors) return issues;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i] as AjvErrorLike;
    const member = memberOf(error);
    const pointer = typeof member === 'string' ? `${error.instancePath}/${pointerSegment(member)}` : error.instancePath;
    issues.push({ pointer, message: error.message ?? error.keyword, keyword: error.keyword });
  }
  return issues;
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
    validator.errors = issuesFromAjv(validate.errors);
    return false;
  }) as Validator<T>;
  validator.errors = null;
  Object.defineProperty(validator, 'schemaName', { value: schemaName, enumerable: true });
  return validator;
}
