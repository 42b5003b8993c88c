/** The validator contract shared by the generated validators, the client and the server runtime. */

/** One problem found by a validator: where (RFC 6901 JSON pointer into the value), what, and which keyword. */
export interface ValidationIssue {
  readonly pointer: string;
  readonly message: string;
  readonly keyword: string;
}

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

/** Thrown by `assertValid` when a value breaks its schema; `issues` names every JSON pointer. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(
    readonly schemaName: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${schemaName} is invalid: ${formatIssues(issues)}`);
  }
}

/** Formats issues as `"/pointer: message"` joined by `; ` (the root pointer is shown as `/`). */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`).join('; ');
}

/** Returns the value typed when it is valid, or throws `ValidationError` naming each pointer. */
export function assertValid<T>(validator: Validator<T>, data: unknown): T {
  if (validator(data)) return data;
  throw new ValidationError(validator.schemaName, validator.errors ?? []);
}

/** The parts of an ajv error object this toolkit reads. */
export interface AjvErrorLike {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** An ajv validate function (runtime-compiled or standalone). */
export interface AjvValidateLike {
  (data: unknown): boolean;
  errors?: readonly AjvErrorLike[] | null;
}

/** `name` as a JSON pointer segment (RFC 6901: `~` is `~0`, `/` is `~1`). */
function pointerSegment(name: string): string {
  return name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name;
}

/** Converts ajv errors to issues, each pointing at the member concerned when ajv names one. */
export function issuesFromAjv(errors: readonly AjvErrorLike[] | null | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!errors) return issues;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i] as AjvErrorLike;
    const params = error.params;
    // `required`, `additionalProperties` and an unknown or missing discriminator tag point at the member concerned.
    const member = params.missingProperty ?? params.additionalProperty ?? params.tag;
    const pointer = typeof member === 'string' ? `${error.instancePath}/${pointerSegment(member)}` : error.instancePath;
    issues.push({ pointer, message: error.message ?? error.keyword, keyword: error.keyword });
  }
  return issues;
}

/** Stands for "no refused value waiting for its issues". */
const NONE = Symbol('none');

/**
 * Wraps ajv validate functions as a `Validator<T>` named `schemaName`. `validate` is compiled with `allErrors`
 * and lists every problem. `check`, when given, is the same schema compiled to stop at the first problem and
 * gives the verdict; `validate` then runs only when the issues of a refused value are first read, on that value
 * (callers read them right away, before changing it). Issues are converted from ajv's errors on first read.
 */
export function fromAjv<T>(validate: AjvValidateLike, schemaName: string, check?: AjvValidateLike): Validator<T> {
  let refused: unknown = NONE;
  let pending: readonly AjvErrorLike[] | null = null;
  let issues: ValidationIssue[] | null = null;
  const validator = (
    check === undefined
      ? (data: unknown): data is T => {
          issues = null;
          // Kept now: a validator whose schema refers to this one overwrites `validate.errors` when it runs.
          pending = validate(data) ? null : (validate.errors ?? []);
          return pending === null;
        }
      : (data: unknown): data is T => {
          issues = null;
          pending = null;
          refused = check(data) ? NONE : data;
          return refused === NONE;
        }
  ) as Validator<T>;
  Object.defineProperties(validator, {
    schemaName: { value: schemaName, enumerable: true },
    errors: {
      enumerable: true,
      get: () => {
        if (refused !== NONE) {
          pending = validate(refused) ? [] : (validate.errors ?? []);
          refused = NONE;
        }
        if (pending !== null) {
          issues = issuesFromAjv(pending);
          pending = null;
        }
        return issues;
      },
      set: (value: ValidationIssue[] | null) => {
        refused = NONE;
        pending = null;
        issues = value;
      },
    },
  });
  return validator;
}
