/**
 * Redocly CLI (`recommended`) and Spectral (`oas`, `asyncapi`) on both documents: zero errors, and every warning
 * is one kept on purpose in spec/DECISIONS.md ("Lint warnings we keep"), each entry still occurring.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isKept, type KeptWarning, keptWarnings, type LintFinding, redocly, spectral } from './lint.js';

const DOCUMENTS = ['spec/openapi.yaml', 'spec/asyncapi.yaml'];
let findings: LintFinding[];
let kept: KeptWarning[];

beforeAll(async () => {
  const [a, b, c, list] = await Promise.all([
    redocly(DOCUMENTS[0] as string),
    redocly(DOCUMENTS[1] as string),
    spectral(DOCUMENTS),
    keptWarnings(),
  ]);
  findings = [...a, ...b, ...c];
  kept = list;
}, 60_000);

const show = (list: readonly LintFinding[]) =>
  list.map((f) => `${f.tool} ${f.rule} ${f.severity} ${f.file} ${f.subject}: ${f.message}`);

describe('external linters', () => {
  it('both tools ran on both documents', () => {
    expect(kept.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => f.tool))).toEqual(new Set(['redocly', 'spectral']));
  });

  it('report no error', () => {
    expect(show(findings.filter((f) => f.severity === 'error'))).toEqual([]);
  });

  it('report only the warnings kept in spec/DECISIONS.md', () => {
    expect(show(findings.filter((f) => f.severity === 'warn' && !isKept(f, kept)))).toEqual([]);
  });

  it('every kept warning still occurs (the list does not rot)', () => {
    const stale = kept.flatMap((k) =>
      k.subjects
        .filter((subject) => !findings.some((f) => f.rule === k.rule && f.subject === subject))
        .map((subject) => `${k.rule} ${subject}`),
    );
    expect(stale).toEqual([]);
  });
});
