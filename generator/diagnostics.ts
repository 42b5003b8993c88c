/** Diagnostics and the generator's error classes: every problem names its file, line and JSON pointer. */
import { relative } from 'node:path';

export type Severity = 'error' | 'warning';

/** One problem found in a spec document. */
export interface Diagnostic {
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** RFC 6901 pointer into the document; empty for the root. */
  readonly pointer: string;
  readonly message: string;
  /** The rule or stage that found it (`redocly/no-unused-components`, `asyncapi`, `consistency`, …). */
  readonly rule: string;
}

/** A file as diagnostics show it: relative to `cwd` (itself when it is `cwd`). */
export function shownPath(file: string, cwd = process.cwd()): string {
  return relative(cwd, file) || file;
}

/** Formats a diagnostic as `file:line:column severity message (rule) at pointer`, the path relative to `cwd`. */
export function formatDiagnostic(d: Diagnostic, cwd = process.cwd()): string {
  const where = `${shownPath(d.file, cwd)}:${d.line}:${d.column}`;
  const at = d.pointer ? ` at #${d.pointer}` : '';
  return `${where} ${d.severity} ${d.message} (${d.rule})${at}`;
}

/** Sorts diagnostics by file, line, column and message so that output is stable. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message),
  );
}

/** A spec document could not be read or is not usable; carries the diagnostics that say why. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
  }
}

/** The command line or options are wrong (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
