/** Table tests of the suite's pure helpers: mutations and their pointers, round-trip containment, report, SSE retry. */
import { describe, expect, it } from 'vitest';
import { fastSseRetry, seededRandom } from './cutting-proxy.js';
import { freeFormPaths, mutate, pointsAt } from './mutations.js';
import { Report } from './report.js';
import { contains } from './round-trip.js';
import { loadConformanceSpec } from './spec.js';

const spec = await loadConformanceSpec();
const closed = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 3 },
    kind: { enum: ['a', 'b'] },
    tags: { type: 'array', items: { type: 'string', pattern: '^t' } },
    extra: { type: 'object' },
  },
};

describe('mutate', () => {
  const mutants = mutate(closed, { name: 'ab', kind: 'a', tags: ['t1'], extra: {} }, spec.walkOptions);
  it.each([
    ['missing_required', '/name'],
    ['too_long', '/name'],
    ['too_short', '/name'],
    ['wrong_type', '/name'],
    ['out_of_enum', '/kind'],
    ['wrong_pattern', '/tags/0'],
    ['extra_member', '/conformance_unexpected'],
    ['wrong_type', '/extra'],
  ])('%s at %s', (kind, pointer) => {
    expect(mutants.some((m) => m.kind === kind && m.pointer === pointer)).toBe(true);
  });

  it('makes only values the schema refuses', () => {
    for (const m of mutants) expect(spec.check(closed)(m.value)).toBe(false);
  });

  it('finds free-form members', () => {
    expect(freeFormPaths(closed, { name: 'ab', extra: {} }, spec.walkOptions)).toEqual([['extra']]);
  });
});

describe('pointsAt', () => {
  it.each([
    [{ pointer: '/a/b' }, '/a/b', true],
    [{ pointer: '/a/b' }, '/a', false],
    [{ pointer: '/a/b/c', unionPointer: '/a' }, '/a/b', true],
    [{ pointer: '/a/b/c', unionPointer: '/a' }, '/a', true],
    [{ pointer: '/a/b/c', unionPointer: '/a' }, '', false],
    [{ pointer: '/a/b/c', unionPointer: '/a' }, '/a/x', false],
  ])('%j names %j: %s', (mutant, pointer, expected) => {
    expect(pointsAt(mutant, pointer)).toBe(expected);
  });
});

describe('contains', () => {
  it.each([
    [{ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } }, true],
    [[1, 2], [1, 2], true],
    [[1, 2, 3], [1, 2], false],
    [{ a: 'x' }, { a: 'y' }, false],
    [{ a: null }, { a: null }, true],
    [undefined, { a: 1 }, false],
  ])('%j holds %j: %s', (actual, expected, holds) => {
    expect(contains(actual, expected)).toBe(holds);
  });
});

describe('Report', () => {
  it('counts cases, failures and known defects per check and prints a table', () => {
    const report = new Report([{ id: 'pinned', matches: (f) => f.problem.includes('pinned') }]);
    report.record('c1', 'op', undefined);
    report.record('c1', 'op', 'broken');
    report.record('c1', 'op2', 'pinned thing');
    expect([report.cases('c1'), report.failed('c1'), report.failed('c1', 'op2'), report.totalFailed]).toEqual([
      3, 1, 0, 1,
    ]);
    expect(report.format().split('\n').slice(0, 3)).toEqual([
      'check  cases  passed  failed  known',
      '-----  -----  ------  ------  -----',
      'c1         3       1       1      1',
    ]);
    expect(report.format()).toContain('KNOWN pinned (c1 op2): pinned thing');
    expect(report.format()).toContain('FAIL c1 op: broken');
  });
});

describe('cutting proxy helpers', () => {
  it('shortens the SSE retry field without changing the length', () => {
    const chunk = Buffer.from('d\r\nretry: 1000\n\n\r\n', 'latin1');
    const out = fastSseRetry(chunk);
    expect(out.toString('latin1')).toBe('d\r\nretry: 0010\n\n\r\n');
    expect(out.length).toBe(chunk.length);
  });

  it('draws the same cut points from the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const draws = Array.from({ length: 5 }, () => [a(), b()]);
    for (const [x, y] of draws) expect(x).toBe(y);
    expect(new Set(draws.map(([x]) => x)).size).toBe(5);
  });
});
