/** Redocly's lint of the OpenAPI document, as diagnostics (see ../diagnostics.ts). */
import type * as Redocly from '@redocly/openapi-core';
import type { Diagnostic } from '../diagnostics.js';
import { requirePackage } from '../require-package.js';
import { redoclyConfigOf, strictChecks } from './rules-config.js';

const { createConfig, getLineColLocation, lint, loadConfig } = requirePackage(
  '@redocly/openapi-core',
) as typeof Redocly;

/**
 * Redocly's rules whose findings break the OpenAPI specification or make generation impossible: the structure check
 * (openapi-structure.ts) reports them, so Redocly's are left out. Every other rule of the `recommended` set is a
 * matter of style, reported as a warning, unless a `redocly.yaml` beside the document sets the rules and their
 * severities.
 */
const SPEC_RULES = new Set([
  'struct',
  'no-unresolved-refs',
  'path-parameters-defined',
  'path-declaration-must-exist',
  'no-identical-paths',
  'operation-parameters-unique',
]);

/** Left to the check stage (`examples.ts`), which checks examples with the generated validators' own ajv setup. */
const EXAMPLES_RULE = 'no-invalid-media-type-examples';

/** Lints the OpenAPI document with the rules of the `redocly.yaml` beside it, else with Redocly's `recommended`. */
export async function lintOpenApi(file: string): Promise<Diagnostic[]> {
  const configured = strictChecks(file);
  const config = await configOf(file, configured);
  let problems: Awaited<ReturnType<typeof lint>>;
  try {
    problems = await lint({ ref: file, config });
  } catch (error) {
    return [notLinted(file, error, configured)];
  }
  return problems
    .filter((problem) => problem.ruleId !== EXAMPLES_RULE && !SPEC_RULES.has(problem.ruleId))
    .map((problem): Diagnostic => {
      const first = problem.location[0];
      const at = first ? getLineColLocation(first).start : { line: 1, col: 1 };
      const error = problem.severity === 'error' && configured;
      return {
        severity: error ? 'error' : 'warning',
        file: first?.source.absoluteRef ?? file,
        line: at.line,
        column: at.col,
        pointer: first?.pointer?.replace(/^#/, '') ?? '',
        message: problem.message,
        rule: `redocly/${problem.ruleId}`,
      };
    });
}

/** Redocly's configuration (`configured`: the project's `redocly.yaml`). */
async function configOf(file: string, configured: boolean): Promise<Redocly.Config> {
  if (configured) return loadConfig({ configPath: redoclyConfigOf(file) });
  // The check stage checks the examples itself, the structure check the specification's rules: Redocly's checks of
  // them would only be dropped.
  const off = Object.fromEntries([EXAMPLES_RULE, ...SPEC_RULES].map((r) => [r, 'off' as const]));
  return createConfig({ extends: ['recommended'], rules: off });
}

/**
 * A document Redocly does not lint, at its first line: one of another kind is an error; one it fails on (a property
 * named `hasOwnProperty` stops it) is a warning that its style rules did not run, unless a `redocly.yaml` sets them.
 * The structure check reports what breaks the specification either way.
 */
function notLinted(file: string, error: unknown, configured: boolean): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  const otherKind = /unsupported specification/i.test(message);
  return {
    severity: otherKind || configured ? 'error' : 'warning',
    file,
    line: 1,
    column: 1,
    pointer: '',
    message: otherKind
      ? 'This is not an OpenAPI 3.0 or 3.1 document: its "openapi" field is missing or names another version.'
      : `Redocly's style rules could not run on the document: ${message}`,
    rule: 'casi/openapi',
  };
}
