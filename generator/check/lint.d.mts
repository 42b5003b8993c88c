import type { Diagnostic } from '../diagnostics.js';

/** Lints both documents; the OpenAPI diagnostics come first. */
export function lintSpecs(openapiFile: string, asyncapiFile: string): Promise<Diagnostic[]>;
