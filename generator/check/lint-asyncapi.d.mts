import type { Diagnostic } from '../diagnostics.js';

/** Parses and validates the AsyncAPI document; a diagnostic without a range has line 0 (place it by its pointer). */
export function lintAsyncApi(file: string): Promise<Diagnostic[]>;
