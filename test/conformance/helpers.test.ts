/**
 * Table tests of the suite's helpers: mutations and their pointers, round-trip containment, the report and its FAIL
 * lines, the `--runs`/`--seed` knobs, `send` on a failing connection, the spec's example requests, SSE retry.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNS, parseRuns, parseSeed, runsFromEnv, seedFromEnv } from '../../conformance/contract.js';
import { exampleRequests } from '../../conformance/examples.js';
import { freeFormPaths, mutate, pointsAt } from '../../conformance/mutations.js';
import { PRINTED_FAILURES_PER_CHECK, Report } from '../../conformance/report.js';
import { contains } from '../../conformance/round-trip.js';
import { loadConformanceSpec } from '../../conformance/spec.js';
import { describeAnswer, isSuccess, send } from '../../conformance/wire.js';
import { fastSseRetry, seededRandom } from './cutting-proxy.js';

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

describe('Report FAIL lines', () => {
  const failLines = (report: Report) =>
    report
      .format()
      .split('\n')
      .filter((l) => /^(FAIL|…) /.test(l));

  it('says how many failed cases it leaves out', () => {
    const report = new Report();
    for (let i = 0; i < 45; i++) report.record('c1', 'op', `request ${i} → 500`);
    const lines = failLines(report);
    expect(lines).toHaveLength(PRINTED_FAILURES_PER_CHECK + 1);
    expect(lines.at(-1)).toBe('… and 25 more failed case(s) of c1 not shown');
  });

  it('prints identical messages once, with their count', () => {
    const report = new Report();
    for (let i = 0; i < 30; i++) report.record('c1', 'op', 'GET /a → no answer: ECONNRESET');
    report.record('c1', 'op', 'GET /b → 500');
    expect(failLines(report)).toEqual([
      'FAIL c1 op: GET /a → no answer: ECONNRESET (30 times)',
      'FAIL c1 op: GET /b → 500',
    ]);
    expect(report.failures).toHaveLength(2);
    expect(report.failed('c1')).toBe(31);
  });

  it('shows the first failure of every operation and of every outcome, however many repeats come first', () => {
    const report = new Report();
    for (let i = 0; i < 100; i++) report.record('c1', 'busy', `request ${i} → 500`);
    report.record('c1', 'busy', 'request x → 404 not declared');
    report.record('c1', 'quiet', 'request y → 401');
    const lines = failLines(report);
    expect(lines).toContain('FAIL c1 quiet: request y → 401');
    expect(lines).toContain('FAIL c1 busy: request x → 404 not declared');
    expect(lines).toContain('FAIL c1 busy: request 0 → 500');
    expect(lines.at(-1)).toBe(`… and ${102 - PRINTED_FAILURES_PER_CHECK} more failed case(s) of c1 not shown`);
  });
});

describe('knobs', () => {
  it.each([
    ['12', 12],
    [undefined, DEFAULT_RUNS],
    ['', DEFAULT_RUNS],
  ])('runs %j → %j', (value, runs) => {
    expect(parseRuns(value, '--runs')).toBe(runs);
  });

  it.each(['abc', '0', '-3', '1.5', '1e3'])('refuses runs %j, naming the option given', (value) => {
    expect(() => parseRuns(value, '--runs')).toThrow(/^--runs must be a positive integer/);
    expect(() => runsFromEnv({ CONFORMANCE_RUNS: value })).toThrow(/^CONFORMANCE_RUNS must be/);
  });

  it.each(['xyz', '1.5', '0x10', '12abc'])('refuses seed %j instead of drawing a random one', (value) => {
    expect(() => parseSeed(value, '--seed')).toThrow(/^--seed must be an integer/);
    expect(() => seedFromEnv({ CONFORMANCE_SEED: value })).toThrow(/^CONFORMANCE_SEED must be/);
  });

  it('takes an integer seed as it is, and draws one when none is given', () => {
    expect(parseSeed('42', '--seed')).toBe(42);
    expect(parseSeed('-7', '--seed')).toBe(-7);
    expect(Number.isSafeInteger(parseSeed(undefined, '--seed'))).toBe(true);
  });
});

describe('send on a connection that fails', () => {
  /** A node:http server that resets the connection of every request. */
  async function resetting(): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer((request) => request.socket.resetAndDestroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('answers status 0 with the network error instead of throwing (HTTP and WebSocket)', async () => {
    const server = await resetting();
    try {
      const http = await send(server.url, { method: 'POST', path: '/conversations/x/context', body: '{}' });
      expect([http.status, http.closedByPeer]).toEqual([0, true]);
      expect(http.error).toMatch(/ECONNRESET|other side closed/);
      expect(describeAnswer(http)).toBe(`no answer: ${http.error}`);
      expect(isSuccess(http)).toBe(false);
      const socket = await send(server.url, { method: 'GET', path: '/conversations/x/session', websocket: true });
      expect(socket.status).toBe(0);
      expect(socket.error).toMatch(/ECONNRESET|socket hang up/);
    } finally {
      await server.close();
    }
  });

  it('tells a refused connection from one the peer closed', async () => {
    const server = await resetting();
    await server.close();
    const refused = await send(server.url, { method: 'GET', path: '/' });
    expect(refused.status).toBe(0);
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(refused.closedByPeer).toBeUndefined();
  });
});

describe('exampleRequests', () => {
  const ids = ['pa_Known1', 'pa_Known1@v1', 'ca_Known2', 'ca_Known2@v1', 'conv_Known3', 'proc_Known4'];
  const op = (id: string) => spec.ir.operations.find((o) => o.id === id) as (typeof spec.ir.operations)[number];

  it("sends the spec's example body with the example ids replaced by known ones of the same kind", () => {
    const [first] = exampleRequests(spec, op('createConversationalAgent'), ids, 1);
    const body = first?.body as { postprocess_agents: string[]; name: string };
    expect(body.postprocess_agents).toEqual(['pa_Known1']);
    expect(body.name).toBe('Ava');
    expect(first?.headers).toEqual({ 'Service-Version': spec.ir.serviceVersion });
    expect(spec.check(op('createConversationalAgent').requestBody?.schema ?? {})(body)).toBe(true);
  });

  it('puts known ids in path parameters, the most specific first', () => {
    const requests = exampleRequests(spec, op('getProcedure'), ids, 1);
    expect(requests[0]?.path).toEqual({ procedure_id: 'proc_Known4' });
    expect(exampleRequests(spec, op('injectConversationContext'), ids, 1)[0]?.path).toEqual({
      conversation_id: 'conv_Known3',
    });
  });

  it('leaves optional parameters out', () => {
    const [first] = exampleRequests(spec, op('listConversations'), ids, 1);
    expect(first?.query).toEqual({});
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
