/** Response checking (on in tests): is the status declared, and does the body or event match its schema? */
import { formatIssues, type ValidationIssue } from '../shared/errors.js';
import { mediaKind } from '../shared/media.js';
import type { Validator } from '../shared/validation.js';
import { accepts } from './frozen.js';
import type { ResponseDefinition, RouteDefinition } from './route.js';

/** What went wrong with an answer the server was about to send. */
export interface ResponseProblem {
  readonly kind: 'undeclared_status' | 'invalid_body' | 'invalid_event';
  readonly route: RouteDefinition;
  readonly status: number;
  readonly body: unknown;
  readonly issues: readonly ValidationIssue[];
}

/** Called with each response problem; the default (`throwResponseProblem`) turns it into a 500. */
export type OnResponseInvalid = (problem: ResponseProblem) => void;

/** Thrown by the default `onResponseInvalid`; the client gets 500 `internal_error`, the log gets the details. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  constructor(readonly problem: ResponseProblem) {
    super(describeResponseProblem(problem));
  }
}

/** The default `onResponseInvalid`: throws `ResponseValidationError`. */
export const throwResponseProblem: OnResponseInvalid = (problem) => {
  throw new ResponseValidationError(problem);
};

/** `operationId 200: kind: /pointer: message; …` */
export function describeResponseProblem(problem: ResponseProblem): string {
  const where = `${problem.route.operationId} ${problem.status}`;
  if (problem.kind === 'undeclared_status') return `${where}: status ${problem.status} is not declared`;
  return `${where}: ${problem.kind === 'invalid_event' ? 'event' : 'body'} is invalid: ${formatIssues(problem.issues)}`;
}

/** The declared response for a status: exact (`'404'`), then range (`'4XX'`), then `'default'`. */
export function findResponse(route: RouteDefinition, status: number): ResponseDefinition | undefined {
  const { responses } = route;
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

/** Reports to `onInvalid` when `status` is undeclared or `body` breaks the declared schema. */
export function checkResponse(route: RouteDefinition, status: number, body: unknown, onInvalid: OnResponseInvalid) {
  // An operation that declares no responses at all (OpenAPI 3.1 allows it) has nothing to check against.
  if (isEmpty(route.responses)) return;
  const declared = findResponse(route, status);
  if (declared === undefined) {
    onInvalid({ kind: 'undeclared_status', route, status, body, issues: [] });
    return;
  }
  // An event stream's items are checked one by one as they are written (`checkItem`).
  if (declared.contentType !== undefined && mediaKind(declared.contentType) === 'event-stream') return;
  const bodyless = declared.validator === undefined && declared.contentType === undefined;
  const problem =
    bodyless && body !== undefined
      ? [{ pointer: '', message: `status ${status} declares no body`, keyword: 'body' }]
      : validate(declared.validator, body);
  if (problem !== null) onInvalid({ kind: 'invalid_body', route, status, body, issues: problem });
}

/** Reports to `onInvalid` when an item of an `http` event-stream answer breaks the declared item schema. */
export function checkItem(route: RouteDefinition, status: number, item: unknown, onInvalid: OnResponseInvalid): void {
  const problem = validate(findResponse(route, status)?.validator, item);
  if (problem !== null) onInvalid({ kind: 'invalid_event', route, status, body: item, issues: problem });
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** Reports to `onInvalid` when a message sent on a stream or socket breaks the route's event schema. */
export function checkEvent(route: RouteDefinition, event: unknown, onInvalid: OnResponseInvalid): void {
  const problem = validate(route.eventValidator, event);
  if (problem !== null) onInvalid({ kind: 'invalid_event', route, status: 200, body: event, issues: problem });
}

function validate(validator: Validator<unknown> | undefined, value: unknown): readonly ValidationIssue[] | null {
  if (validator === undefined || accepts(validator, value)) return null;
  const issues = validator.errors ?? [];
  return issues.length > 0 ? issues : [{ pointer: '', message: `does not match ${validator.schemaName}`, keyword: '' }];
}
