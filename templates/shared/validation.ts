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

/** Converts ajv errors to issues, each pointing at the member concerned when ajv names one. */
export function issuesFromAjv(errors: readonly AjvErrorLike[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((error) => {
    // `required`, `additionalProperties` and an unknown or missing discriminator tag point at the member concerned.
    const member = error.params.missingProperty ?? error.params.additionalProperty ?? error.params.tag;
    const pointer =
      typeof member === 'string'
        ? `${error.instancePath}/${member.replace(/~/g, '~0').replace(/\//g, '~1')}`
        : error.instancePath;
    return { pointer, message: error.message ?? error.keyword, keyword: error.keyword };
  });
}

/** Wraps an ajv validate function as a `Validator<T>` named `schemaName`. */
export function fromAjv<T>(validate: AjvValidateLike, schemaName: string): Validator<T> {
  // The issues are built from ajv's errors only when `errors` is read: a caller that only needs the verdict
  // (or reads a failed call's issues once) pays for no conversion it does not use.
  let pending: readonly AjvErrorLike[] | null = null;
  let issues: ValidationIssue[] | null = null;
  const validator = ((data: unknown): data is T => {
    const valid = validate(data);
    pending = valid ? null : (validate.errors ?? []);
    issues = null;
    return valid;
  }) as Validator<T>;
  Object.defineProperties(validator, {
    schemaName: { value: schemaName, enumerable: true },
    errors: {
      enumerable: true,
      get: () => {
        if (pending !== null && issues === null) issues = issuesFromAjv(pending);
        return issues;
      },
      set: (value: ValidationIssue[] | null) => {
        pending = null;
        issues = value;
      },
    },
  });
  return validator;
}
