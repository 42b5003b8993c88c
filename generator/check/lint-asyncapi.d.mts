import type { Parser, Diagnostic as ParserDiagnostic } from '@asyncapi/parser';
import type { Diagnostic } from '../diagnostics.js';

/** Validates the AsyncAPI document; a diagnostic without a range has line 0 (place it by its pointer). */
export function lintAsyncApi(file: string): Promise<Diagnostic[]>;

/** The parser the check validates with (see lint-asyncapi.mjs). */
export function checkParser(): Parser;

/** The parser's findings on `file` as diagnostics: errors and warnings; hints and infos are dropped. */
export function asDiagnostics(file: string, diagnostics: readonly ParserDiagnostic[]): Diagnostic[];
