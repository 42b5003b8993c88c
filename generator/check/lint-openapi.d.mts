import type { Diagnostic } from '../diagnostics.js';

/** Lints the OpenAPI document with Redocly's `recommended` rules. */
export function lintOpenApi(file: string): Promise<Diagnostic[]>;
