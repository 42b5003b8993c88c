// The two document validators, Redocly (OpenAPI) and @asyncapi/parser (AsyncAPI), in plain JavaScript so that the
// check worker runs them without a TypeScript loader. Both return diagnostics (see ../diagnostics.ts).
import { createRequire } from 'node:module';
import { createConfig, getLineColLocation, lint } from '@redocly/openapi-core';

// @asyncapi/parser is CommonJS: `require` spares the ESM loader's export scan of its files.
const { fromFile, Parser } = createRequire(import.meta.url)('@asyncapi/parser');

/** Runs both validators, side by side; the OpenAPI diagnostics come first. */
export async function lintSpecs(openapiFile, asyncapiFile) {
  const [openapi, asyncapi] = await Promise.all([lintOpenApi(openapiFile), lintAsyncApi(asyncapiFile)]);
  return [...openapi, ...asyncapi];
}

/** Lints the OpenAPI document with Redocly's `recommended` rules; its errors are errors, its warnings warnings. */
export async function lintOpenApi(file) {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lint({ ref: file, config });
  return problems.map((problem) => {
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

/**
 * Parses and validates the AsyncAPI document (and the OpenAPI schemas it references). Parser errors (severity 0)
 * are errors, its warnings (1) are warnings, hints are dropped. A diagnostic the parser gives no range for has
 * line 0: the caller places it by its pointer.
 */
export async function lintAsyncApi(file) {
  const { diagnostics } = await fromFile(new Parser(), file).parse();
  return diagnostics
    .filter((d) => d.severity <= 1)
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
function pointerOf(path) {
  return path.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
