/**
 * The model `casi conformance` checks against, built without the linters (`casi check` runs those, and they cost
 * seconds): only what makes the model unusable stops a run, as a usage error of one located line.
 */
import { hasErrors, modelOf } from '../generator/check/index.js';
import { checkSchemasCompile } from '../generator/check/schemas.js';
import { type Diagnostic, formatDiagnostic, InputError, UsageError } from '../generator/diagnostics.js';
import type { Ir } from '../generator/ir/model.js';
import { type LoadedSpecs, loadSpecs, valueAt } from '../generator/load/index.js';
import { refsIn } from '../generator/load/refs.js';
import { toPointer } from '../generator/load/source-map.js';
import { resolveOptions } from '../generator/options.js';

/** The model and the AsyncAPI document as parsed (its message examples are not in the model). */
export interface UsableModel {
  readonly ir: Ir;
  readonly asyncapi: unknown;
}

/** Loads the documents and builds their model; throws `UsageError` naming the first error and where it is. */
export async function usableModel(files: {
  openapi?: string | undefined;
  asyncapi?: string | undefined;
}): Promise<UsableModel> {
  const { openapi, asyncapi } = resolveOptions(files);
  try {
    const specs = await loadSpecs(openapi, asyncapi);
    const dangling = danglingRefs(specs);
    const { ir, diagnostics } = dangling.length > 0 ? { ir: undefined, diagnostics: dangling } : modelOf(specs);
    const found = ir === undefined ? [...diagnostics] : [...diagnostics, ...checkSchemasCompile(specs, ir)];
    if (ir !== undefined && !hasErrors(found)) return { ir, asyncapi: specs.asyncapi.value };
    throw new InputError('the documents cannot be modelled', found);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const errors = error.diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more: run casi check)` : '';
    throw new UsageError(
      `cannot check against these documents: ${first ? formatDiagnostic(first) : error.message}${more}`,
    );
  }
}

/** Every local `$ref` of either document that points at nothing (the model would fail on it later, unlocated). */
function danglingRefs(specs: LoadedSpecs): Diagnostic[] {
  return [specs.openapi, specs.asyncapi].flatMap((doc) =>
    [...refsIn(doc.value)]
      .filter(({ ref }) => ref.startsWith('#') && valueAt(doc.value, ref.slice(1)) === undefined)
      .map(({ ref, path }): Diagnostic => {
        const pointer = toPointer([...path, '$ref']);
        return {
          severity: 'error',
          file: doc.file,
          ...doc.locate(pointer),
          pointer,
          message: `${ref} points to nothing`,
          rule: 'casi/model',
        };
      }),
  );
}
