/** The `check` stage: both documents valid, and consistent with each other. */
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js';
import type { LoadedSpecs } from '../load/index.js';
import { checkConsistency } from './consistency.js';

/** Runs every check; the result is sorted. Generation stops when any diagnostic is an error. */
export async function checkSpecs(specs: LoadedSpecs): Promise<Diagnostic[]> {
  // Loaded on demand: the validators are heavy, and the CLI runs them in a worker thread instead.
  const { lintSpecs } = await import('./lint.mjs');
  return completeCheck(specs, await lintSpecs(specs.openapi.file, specs.asyncapi.file));
}

/**
 * Completes what the validators found (`lints`, here or from the worker): places diagnostics that came
 * without a line by their pointer, adds the consistency checks, and sorts.
 */
export function completeCheck(specs: LoadedSpecs, lints: readonly Diagnostic[]): Diagnostic[] {
  const docs = [specs.openapi, specs.asyncapi];
  const placed = lints.map((d) => {
    if (d.line > 0) return d;
    const doc = docs.find((candidate) => candidate.file === d.file) ?? specs.asyncapi;
    return { ...d, ...doc.locate(d.pointer) };
  });
  return sortDiagnostics([...placed, ...checkConsistency(specs.openapi, specs.asyncapi)]);
}

/** True when some diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
