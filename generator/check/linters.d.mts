import type { Diagnostic } from '../diagnostics.js';

/** Runs both validators, side by side; the OpenAPI diagnostics come first. */
export function lintSpecs(openapiFile: string, asyncapiFile: string): Promise<Diagnostic[]>;

/** Lints the OpenAPI document with Redocly's `recommended` rules. */
export function lintOpenApi(file: string): Promise<Diagnostic[]>;

/** Parses and validates the AsyncAPI document; a diagnostic without a range has line 0 (place it by its pointer). */
export function lintAsyncApi(file: string): Promise<Diagnostic[]>;
