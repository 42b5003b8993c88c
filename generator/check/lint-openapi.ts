/** Redocly's lint of the OpenAPI document, as diagnostics (see ../diagnostics.ts). */
import type * as Redocly from '@redocly/openapi-core';
import type { Diagnostic } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';

const { createConfig, getLineColLocation, lint } = requirePackage('@redocly/openapi-core') as typeof Redocly;

/**
 * Lints the OpenAPI document with Redocly's `recommended` rules; its errors are errors, its warnings warnings. The
 * media types' examples are left to the check stage (`examples.ts`), which checks them with the generated
 * validators' own ajv setup.
 */
export async function lintOpenApi(file: string): Promise<Diagnostic[]> {
  const config = await createConfig({
    extends: ['recommended'],
    rules: { 'no-invalid-media-type-examples': 'off' },
  });
  const problems = await lint({ ref: file, config });
  return problems.map((problem): Diagnostic => {
    const first = problem.location[0];
    const at = first ? getLineColLocation(first).start : { line: 1, col: 1 };
    return {
      severity: problem.severity === 'error' ? 'error' : 'warning',
      file: first?.source.absoluteRef ?? file,
      line: at.line,
      column: at.col,
      pointer: first?.pointer?.replace(/^#/, '') ?? '',
      message: problem.message,
      rule: `redocly/${problem.ruleId}`,
    };
  });
}
