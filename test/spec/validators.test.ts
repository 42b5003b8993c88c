/** Both documents pass their reference validators: @asyncapi/parser and Redocly lint (`recommended` ruleset). */
import { relative } from 'node:path';
import type { Diagnostic } from '@asyncapi/parser';
import { fromFile, Parser } from '@asyncapi/parser';
import { createConfig, getLineColLocation, lint, type NormalizedProblem } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ASYNCAPI_PATH, OPENAPI_PATH } from './load-specs.ts';

/** The warnings the `recommended` ruleset is allowed to report, each pinned to its rule and location. */
const KNOWN_WARNINGS: readonly { ruleId: string; pointer: string; why: string }[] = [
  {
    ruleId: 'operation-2xx-response',
    pointer: '#/paths/~1conversations~1{conversation_id}~1session/get/responses',
    why: 'the WebSocket handshake answers 101 Switching Protocols',
  },
  {
    ruleId: 'no-unused-components',
    pointer: '#/components/schemas/ClientEvent',
    why: 'ClientEvent is used by asyncapi.yaml only',
  },
];

function where(problem: NormalizedProblem): string {
  const location = problem.location[0];
  if (!location) return '(no location)';
  const { start } = getLineColLocation(location);
  const file = relative(process.cwd(), location.source.absoluteRef);
  return `${file}:${start.line}:${start.col}`;
}

function describeProblem(problem: NormalizedProblem): string {
  return `${where(problem)} [${problem.ruleId}] ${problem.message} (${problem.location[0]?.pointer ?? ''})`;
}

function isKnown(problem: NormalizedProblem): boolean {
  return KNOWN_WARNINGS.some((w) => w.ruleId === problem.ruleId && w.pointer === problem.location[0]?.pointer);
}

function describeDiagnostic(d: Diagnostic): string {
  const file = relative(process.cwd(), d.source ?? ASYNCAPI_PATH);
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1} [${String(d.code)}] ${d.message} (${d.path.join('/')})`;
}

describe('asyncapi.yaml', () => {
  it('parses with @asyncapi/parser without errors or warnings', async () => {
    const { document, diagnostics } = await fromFile(new Parser(), ASYNCAPI_PATH).parse();
    // Severity 0 is an error, 1 a warning; 2 (information) and 3 (hint) are allowed.
    const problems = diagnostics.filter((d) => d.severity === 0 || d.severity === 1).map(describeDiagnostic);
    expect(problems, `AsyncAPI diagnostics:\n${problems.join('\n')}`).toEqual([]);
    expect(document, 'the parser returned no document').toBeDefined();
  });
});

describe('openapi.yaml', () => {
  let problems: NormalizedProblem[] = [];
  beforeAll(async () => {
    const config = await createConfig({ extends: ['recommended'] });
    problems = (await lint({ ref: OPENAPI_PATH, config })).filter((p) => !p.ignored);
  });

  it('has no Redocly lint errors', () => {
    const errors = problems.filter((p) => p.severity === 'error').map(describeProblem);
    expect(errors, `Redocly errors:\n${errors.join('\n')}`).toEqual([]);
  });

  it('has no Redocly lint warnings beyond the known ones', () => {
    const warnings = problems.filter((p) => p.severity === 'warn' && !isKnown(p)).map(describeProblem);
    expect(warnings, `Redocly warnings:\n${warnings.join('\n')}`).toEqual([]);
  });
});
