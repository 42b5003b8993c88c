/** The `check` stage: both documents valid, and consistent with each other. */
import { type Diagnostic, InputError, sortDiagnostics } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import type { Ir } from '../ir/model.js';
import type { LoadedSpecs } from '../load/index.js';
import { placeOf } from '../load/source-map.js';
import { checkConsistency, usesEventEnvelopes } from './consistency.js';
import { checkDiscriminators } from './discriminators.js';
import { checkExamples } from './examples.js';
import { checkMethodNames } from './method-names.js';
import { checkOpenApiVersion } from './openapi-version.js';
import { unreadPayloads } from './other-formats.js';
import { atUnresolvedRef } from './ref-location.js';
import { strictChecks } from './rules-config.js';
import { checkSchemasCompile } from './schemas.js';

/** Runs every check; the result is sorted. Generation stops when any diagnostic is an error. */
export async function checkSpecs(specs: LoadedSpecs): Promise<Diagnostic[]> {
  const files = [specs.openapi, specs.asyncapi].map((doc) => (doc.absent ? undefined : doc.file));
  // Loaded here only: the linters are heavy, and the commands run them in a worker thread instead.
  const { lintSpecs } = await import('./lint.js');
  return completeCheck(specs, await lintSpecs(files[0], files[1]), modelOf(specs));
}

/** The IR of the documents and what building it found: its warnings, or why it cannot be built. */
export interface Model {
  readonly ir: Ir | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Completes what the linters found (`lints`): places diagnostics that came without a line by their pointer (an
 * unresolved AsyncAPI reference at its `$ref`), adds the model's findings (why it cannot be built only when nothing
 * else is an error: a broken document says why itself), the consistency checks (where the documents use this
 * service's event envelopes), the discriminator mappings and `x-casi-method` names, the compilation of every schema
 * and the examples of both documents; and sorts them, each once.
 */
export function completeCheck(specs: LoadedSpecs, lints: readonly Diagnostic[], model: Model): Diagnostic[] {
  const docs = [specs.openapi, specs.asyncapi];
  const placed = unreadPayloads(lints, specs.asyncapi).map((d): Diagnostic => {
    const found: Diagnostic = atUnresolvedRef(d, specs.asyncapi);
    if (found.line > 0) return found;
    const doc = docs.find((candidate) => candidate.file === found.file) ?? specs.asyncapi;
    return { ...found, ...doc.locate(found.pointer) };
  });
  const { ir } = model;
  const compiled = ir === undefined ? [] : checkSchemasCompile(specs, ir);
  const severity = strictChecks(specs.openapi.file) ? 'error' : 'warning';
  const examples = ir === undefined || compiled.length > 0 ? [] : checkExamples(specs, ir, severity);
  const consistency = usesEventEnvelopes(specs.openapi) ? checkConsistency(specs.openapi, specs.asyncapi) : [];
  const documented = specs.openapi.absent
    ? []
    : [
        ...checkOpenApiVersion(specs.openapi),
        ...checkDiscriminators(specs.openapi, severity === 'error'),
        ...checkMethodNames(specs.openapi),
      ];
  const found = [...placed, ...consistency, ...documented, ...compiled, ...examples];
  const modelled = ir === undefined && hasErrors(found) ? [] : model.diagnostics;
  return sortDiagnostics(once([...found, ...modelled]));
}

/** Each diagnostic once: a schema copied by the load stage (load/pointed-schemas.ts) is placed where the original is. */
function once(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.file, d.line, d.column, d.pointer, d.message, d.rule, d.severity]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Builds the IR; its warnings, or the reason it cannot be built, become diagnostics. */
export function modelOf(specs: LoadedSpecs): Model {
  try {
    const ir = buildIr(specs);
    const diagnostics = ir.warnings.map((w): Diagnostic => {
      const doc = w.document === 'openapi' ? specs.openapi : specs.asyncapi;
      return {
        severity: 'warning',
        ...placeOf(doc, w.pointer),
        message: w.message,
        rule: w.rule ?? 'casi/model',
      };
    });
    return { ir, diagnostics };
  } catch (error) {
    const diagnostics =
      error instanceof InputError && error.diagnostics.length > 0
        ? error.diagnostics
        : [
            {
              severity: 'error' as const,
              file: specs.openapi.absent ? specs.asyncapi.file : specs.openapi.file,
              line: 1,
              column: 1,
              pointer: '',
              message: `the documents cannot be modelled: ${(error as Error).message}`,
              rule: 'casi/model',
            },
          ];
    return { ir: undefined, diagnostics };
  }
}

/** True when some diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
