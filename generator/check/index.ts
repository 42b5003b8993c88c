/** The `check` stage: both documents valid, and consistent with each other. */
import { type Diagnostic, sortDiagnostics } from '../diagnostics.js';
import type { LoadedSpecs } from '../load/index.js';
import { checkAsyncApi } from './asyncapi.js';
import { checkConsistency } from './consistency.js';
import { checkOpenApi } from './openapi.js';

/** Runs every check; the result is sorted. Generation stops when any diagnostic is an error. */
export async function checkSpecs(specs: LoadedSpecs): Promise<Diagnostic[]> {
  const [openapi, asyncapi] = await Promise.all([checkOpenApi(specs.openapi), checkAsyncApi(specs.asyncapi)]);
  return sortDiagnostics([...openapi, ...asyncapi, ...checkConsistency(specs.openapi, specs.asyncapi)]);
}

/** True when some diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
