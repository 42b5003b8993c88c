/** The `check` stage: both documents valid, and consistent with each other. */
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import type { Ir } from '../ir/model.js';
import type { LoadedSpecs } from '../load/index.js';
import { checkConsistency } from './consistency.js';
import { checkExamples } from './examples.js';

/** Runs every check; the result is sorted. Generation stops when any diagnostic is an error. */
export async function checkSpecs(specs: LoadedSpecs): Promise<Diagnostic[]> {
  // Loaded on demand: the validators are heavy, and the CLI runs them in a worker thread instead.
  const { lintSpecs } = await import('./lint.mjs');
  return completeCheck(specs, await lintSpecs(specs.openapi.file, specs.asyncapi.file), modelOf(specs));
}

/**
 * Completes what the validators found (`lints`, here or from the worker): places diagnostics that came
 * without a line by their pointer, adds the consistency checks and the examples' (against the schemas of `ir`,
 * when the documents have one), and sorts.
 */
export function completeCheck(specs: LoadedSpecs, lints: readonly Diagnostic[], ir: Ir | undefined): Diagnostic[] {
  const docs = [specs.openapi, specs.asyncapi];
  const placed = lints.map((d) => {
    if (d.line > 0) return d;
    const doc = docs.find((candidate) => candidate.file === d.file) ?? specs.asyncapi;
    return { ...d, ...doc.locate(d.pointer) };
  });
  const examples = ir === undefined ? [] : checkExamples(specs.openapi, ir);
  return sortDiagnostics([...placed, ...checkConsistency(specs.openapi, specs.asyncapi), ...examples]);
}

/** The IR of documents that have one; for documents too broken for it, the other checks say why. */
export function modelOf(specs: LoadedSpecs): Ir | undefined {
  try {
    return buildIr(specs);
  } catch {
    return undefined;
  }
}

/** True when some diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
