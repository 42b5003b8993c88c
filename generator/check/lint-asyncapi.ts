/** @asyncapi/parser's validation of the AsyncAPI document, as diagnostics (see ../diagnostics.ts). */
import type * as AsyncApiParser from '@asyncapi/parser';
import type { Parser, Diagnostic as ParserDiagnostic } from '@asyncapi/parser';
import type { Diagnostic } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';
import type { LintRules } from './lint.js';

const parserPackage = requirePackage('@asyncapi/parser') as typeof AsyncApiParser;

/** The least severe of the parser's findings that is reported: warnings (errors are 0, hints 3). */
const REPORTED = 1;

/**
 * The parser's rules that generation needs: its core set without the recommended style rules, and without the check of
 * where the unresolved document may place a `$ref` (the loader follows a `$ref` wherever it is; the resolved
 * document's structure is still checked). That check compiles the AsyncAPI JSON Schema a second time.
 */
const STRUCTURE_RULES = { recommended: false, rules: { 'asyncapi-document-unresolved': 'off' as const } };

/** One parser per set of rules for the process: building one loads its rulesets. */
const parsers = new Map<LintRules, Parser>();

/**
 * Validates the AsyncAPI document (and the OpenAPI schemas it references) with the parser's rules. Its errors
 * (severity 0) are errors, its warnings (1) are warnings, hints are dropped. A diagnostic the parser gives no range
 * for has line 0: the caller places it by its pointer. (`validate`, not `parse`: the same findings, without the
 * document model that `parse` goes on to build and nothing here reads.) With `structure`, `STRUCTURE_RULES`.
 */
export async function lintAsyncApi(file: string, rules: LintRules = 'style'): Promise<Diagnostic[]> {
  let parser = parsers.get(rules);
  if (parser === undefined) {
    parser = new parserPackage.Parser(rules === 'style' ? {} : { ruleset: STRUCTURE_RULES });
    parsers.set(rules, parser);
  }
  return asDiagnostics(file, await parserPackage.fromFile(parser, file).validate());
}

/** The parser's findings as diagnostics. */
export function asDiagnostics(file: string, diagnostics: readonly ParserDiagnostic[]): Diagnostic[] {
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
