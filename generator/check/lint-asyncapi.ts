/** @asyncapi/parser's validation of the AsyncAPI document, as diagnostics (see ../diagnostics.ts). */
import type * as AsyncApiParser from '@asyncapi/parser';
import type { Parser, Diagnostic as ParserDiagnostic } from '@asyncapi/parser';
import type { Diagnostic } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';

const parserPackage = requirePackage('@asyncapi/parser') as typeof AsyncApiParser;

/** The least severe of the parser's findings that is reported: warnings (errors are 0, hints 3). */
const REPORTED = 1;

/** The parser, for the process: building one loads its rulesets. */
let parser: Parser | undefined;

/**
 * Validates the AsyncAPI document (and the OpenAPI schemas it references) with the parser's whole ruleset, as `casi
 * check` does. Its errors (severity 0) are errors, its warnings (1) are warnings, hints are dropped. A diagnostic the
 * parser gives no range for has line 0: the caller places it by its pointer. (`validate`, not `parse`: the same
 * findings, without the document model that `parse` goes on to build and nothing here reads.)
 */
export async function lintAsyncApi(file: string): Promise<Diagnostic[]> {
  parser ??= new parserPackage.Parser();
  return asDiagnostics(file, await parserPackage.fromFile(parser, file).validate());
}

/** The parser's findings as diagnostics. */
function asDiagnostics(file: string, diagnostics: readonly ParserDiagnostic[]): Diagnostic[] {
  return diagnostics
    .filter((d) => d.severity <= REPORTED)
    .map((d) => ({
      severity: d.severity === 0 ? 'error' : 'warning',
      file: d.source && d.source !== file && !d.source.startsWith('/') ? file : (d.source ?? file),
      line: d.range?.start ? d.range.start.line + 1 : 0,
      column: d.range?.start ? d.range.start.character + 1 : 0,
      pointer: pointerOf(d.path),
      message: d.message,
      rule: `asyncapi/${String(d.code)}`,
    }));
}

/** Joins path segments into an RFC 6901 pointer. */
function pointerOf(path: readonly (string | number)[]): string {
  return path.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
