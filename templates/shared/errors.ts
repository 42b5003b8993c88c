/**
 * The errors shared by the client, the validators and the server runtime: `CasiError`, the base of every error the
 * client raises, and `ValidationError` with `assertValid`, which throws it. They live here, apart from the validator
 * code, so that the client's error classes and the validators' code load in separate pieces (a page making REST
 * calls loads no validator code).
 */
import type { Validator } from './validation.js';

/** The base of every error the client raises, `ValidationError` included. */
export class CasiError extends Error {
  override readonly name: string = 'CasiError';
}

/** One problem found by a validator: where (RFC 6901 JSON pointer into the value), what, and which keyword. */
export interface ValidationIssue {
  readonly pointer: string;
  readonly message: string;
  readonly keyword: string;
}

/** Thrown by `assertValid` when a value breaks its schema; `issues` names every JSON pointer. A `CasiError`. */
export class ValidationError extends CasiError {
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
