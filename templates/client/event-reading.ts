/**
 * The tolerant reader of server events. The spec's event schemas are closed, so the day the service adds a member or
 * an event type, a strict check would fail every client. Here a member this client does not know is kept and
 * ignored, and an event of a type it does not know is delivered as it came (or skipped); anything else that breaks
 * the schema still throws `ValidationError`. `strict` checks every event exactly against the schema (for tests).
 */
import { ValidationError, type ValidationIssue } from '../shared/errors.js';
import type { Validator } from '../shared/validation.js';

/** How server events are read; `createClient` takes them for every stream and session, each call may set them. */
export interface EventReadingOptions {
  /**
   * Checks every event exactly against its schema: a member or an event type this client does not know throws
   * `ValidationError`, as conformance tests want (default false: such events are read as the service grows).
   */
  strict?: boolean | undefined;
  /**
   * An event of a type this client does not know (a newer service): `'deliver'` (default) passes it on as it came,
   * unchecked (its `payload.type` is none the event union names, so a `switch` on it needs a default branch);
   * `'skip'` leaves it out. Telling it needs the validator (`validate` not false).
   */
  unknownEvents?: 'deliver' | 'skip' | undefined;
}

/** An event as read, and whether its type is one this client knows. */
export interface ReadEvent<E> {
  readonly event: E;
  readonly known: boolean;
}

/** Unknown members found inside unknown members (or revealed by another branch of a union) are pruned in turn. */
const MAX_PASSES = 8;

/**
 * Checks `data` with `validator`. Unless `strict`, members the schema does not name are left out of the check (the
 * event is delivered with them), and an event whose only fault is an unknown `payload.type` is delivered with
 * `known: false`. Any other fault throws `ValidationError` with the issues of the event without its unknown members.
 */
export function readEvent<E>(validator: Validator<E>, data: unknown, strict = false): ReadEvent<E> {
  if (validator(data)) return { event: data, known: true };
  let issues: readonly ValidationIssue[] = validator.errors ?? [];
  if (!strict) {
    let checked = data;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const unknownMembers = issues.filter((issue) => issue.keyword === 'additionalProperties');
      if (unknownMembers.length === 0) break;
      checked = withoutMembers(checked, unknownMembers);
      if (validator(checked)) return { event: data as E, known: true };
      issues = validator.errors ?? [];
    }
    if (issues.length > 0 && issues.every(isUnknownType)) return { event: data as E, known: false };
  }
  throw new ValidationError(validator.schemaName, issues);
}

/** The issue of an event whose `payload.type` is none of the union's. */
function isUnknownType(issue: ValidationIssue): boolean {
  return issue.keyword === 'discriminator' && issue.pointer === '/payload/type';
}

/** A copy of `data` without the members the issues point at (JSON pointers, RFC 6901). */
function withoutMembers(data: unknown, issues: readonly ValidationIssue[]): unknown {
  const copy: unknown = structuredClone(data);
  for (const { pointer } of issues) {
    const path = pointer
      .split('/')
      .slice(1)
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const member = path.pop();
    // Own members only: a pointer through `__proto__` must never reach a prototype.
    let parent: unknown = copy;
    for (const segment of path) parent = ownMember(parent, segment);
    if (member !== undefined && ownMember(parent, member) !== undefined) {
      delete (parent as Record<string, unknown>)[member];
    }
  }
  return copy;
}

/** `value[name]` when `value` is an object or array with that own member, else `undefined`. */
function ownMember(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
