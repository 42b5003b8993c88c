/** The messages between a command and its worker thread (start.ts, entry.ts); each reply names its request's `id`. */
import type { LintRules } from '../check/lint.js';
import type { Diagnostic } from '../diagnostics.js';
import type { EmittedFile } from '../emit/shared/files.js';
import type { TypeScriptFile } from '../emit/shared/ts.js';

/**
 * Sent first: the documents to lint and with which rules; `emits`: generation follows, so the worker loads
 * ts-morph once it has linted, and stays until it is closed.
 */
export interface LintRequest {
  readonly kind: 'lint';
  readonly openapi: string | undefined;
  readonly asyncapi: string | undefined;
  readonly rules: LintRules;
  readonly emits: boolean;
}

/** The REST types of the IR's OpenAPI document (emit/types/rest.ts). */
export interface RestTypesRequest {
  readonly kind: 'rest-types';
  readonly document: unknown;
}

/** One TypeScript file of the emitters, to print (emit/shared/print.ts). */
export interface PrintRequest {
  readonly kind: 'print';
  readonly file: TypeScriptFile;
}

export type Request = LintRequest | RestTypesRequest | PrintRequest;

/** What each request gives back. */
export interface Results {
  readonly lint: Diagnostic[];
  readonly 'rest-types': string;
  readonly print: EmittedFile;
}

/** The answer to request `id`: its result, or the message of the error it threw. */
export type Reply = { readonly id: number; readonly result: unknown } | { readonly id: number; readonly error: string };
