/** The `check` stage: both documents valid, and consistent with each other. */
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import type { Ir } from '../ir/model.js';
import type { LoadedSpecs } from '../load/index.js';
import { checkConsistency } from './consistency.js';
import { checkExamples } from './examples.js';
import { lintSpecs } from './lint.js';
import { atUnresolvedRef } from './ref-location.js';
import { checkSchemasCompile } from './schemas.js';

/** Runs every check; the result is sorted. Generation stops when any diagnostic is an error. */
export async function checkSpecs(specs: LoadedSpecs): Promise<Diagnostic[]> {
  return completeCheck(specs, await lintSpecs(specs.openapi.file, specs.asyncapi.file), modelOf(specs));
}

/**
 * Redocly's rules that check an example against its schema (a parameter's, a schema's own `example`): warnings in
 * its `recommended` set, errors here, like every other example its schema refuses (examples.ts).
 */
const EXAMPLE_RULES = new Set(['redocly/no-invalid-parameter-examples', 'redocly/no-invalid-schema-examples']);

/**
 * Completes what the validators found (`lints`): places diagnostics that came
 * without a line by their pointer (an unresolved AsyncAPI reference at its `$ref`), makes an example that breaks its schema an error, adds the consistency checks
 * and the examples' of both documents (against the schemas of `ir`, when the documents have one), and sorts.
 */
export function completeCheck(specs: LoadedSpecs, lints: readonly Diagnostic[], ir: Ir | undefined): Diagnostic[] {
  const docs = [specs.openapi, specs.asyncapi];
  const placed = lints.map((d): Diagnostic => {
    const found: Diagnostic = atUnresolvedRef(
      EXAMPLE_RULES.has(d.rule) ? { ...d, severity: 'error' } : d,
      specs.asyncapi,
    );
    if (found.line > 0) return found;
    const doc = docs.find((candidate) => candidate.file === found.file) ?? specs.asyncapi;
    return { ...found, ...doc.locate(found.pointer) };
  });
  const compiled = ir === undefined ? [] : checkSchemasCompile(specs, ir);
  const examples = ir === undefined || compiled.length > 0 ? [] : checkExamples(specs, ir);
  return sortDiagnostics([...placed, ...checkConsistency(specs.openapi, specs.asyncapi), ...compiled, ...examples]);
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
