/** The messages between a command and its worker thread (start.ts, entry.ts). */

import type { LintRules } from '../check/lint.js';
import type { Diagnostic } from '../diagnostics.js';

/**
 * Sent first: the documents to lint and with which rules; `restTypes`: the REST types will be asked for, so the
 * worker loads openapi-typescript once it has linted, and stays until it is closed.
 */
export interface LintRequest {
  readonly kind: 'lint';
  readonly openapi: string | undefined;
  readonly asyncapi: string | undefined;
  readonly rules: LintRules;
  readonly restTypes: boolean;
}

/** Then, at most once: the OpenAPI document of the IR to print the REST types of (emit/types/rest.ts). */
export interface RestTypesRequest {
  readonly kind: 'rest-types';
  readonly document: unknown;
}

export type Request = LintRequest | RestTypesRequest;

/** The answer to each request, by its kind: the result, or the message of the error it threw. */
export type Reply =
  | { readonly kind: 'lint'; readonly diagnostics: Diagnostic[] }
  | { readonly kind: 'rest-types'; readonly text: string }
  | { readonly kind: Request['kind']; readonly error: string };
