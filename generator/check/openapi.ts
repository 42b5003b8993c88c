/** Validates the OpenAPI document with Redocly's `recommended` rules. */
import { createConfig, getLineColLocation, lint } from '@redocly/openapi-core';
import type { Diagnostic } from '../diagnostics.js';
import type { SourceDocument } from '../load/index.js';

/** Lints the document; Redocly errors are errors, its warnings stay warnings. */
export async function checkOpenApi(doc: SourceDocument): Promise<Diagnostic[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lint({ ref: doc.file, config });
  return problems.map((problem) => {
    const first = problem.location[0];
    const pointer = first?.pointer?.replace(/^#/, '') ?? '';
    const at = first ? getLineColLocation(first).start : { line: 1, col: 1 };
    return {
      severity: problem.severity === 'error' ? 'error' : 'warning',
      file: first?.source.absoluteRef ?? doc.file,
      line: at.line,
      column: at.col,
      pointer,
      message: problem.message,
      rule: `redocly/${problem.ruleId}`,
    } satisfies Diagnostic;
  });
}
