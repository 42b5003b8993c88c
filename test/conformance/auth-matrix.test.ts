/** The auth matrix against the in-process reference server on a fake clock (token expiry by time travel). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAuthMatrix } from '../../conformance/auth-matrix.js';
import { createContext, seedFromEnv } from '../../conformance/contract.js';
import { Report } from '../../conformance/report.js';
import { loadConformanceSpec } from '../../conformance/spec.js';
import type { Target } from '../../conformance/target.js';
import { FakeClock } from '../../reference/clock.js';
import { startTestReference } from './test-reference.js';

const TOKEN_TTL_SECONDS = 600;
const spec = await loadConformanceSpec();
const report = new Report();
let target: Target;

beforeAll(async () => {
  target = await startTestReference({
    clock: new FakeClock(),
    env: { CASI_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) },
  });
  const ctx = await createContext(target, new Report(), { runs: 40, seed: seedFromEnv() });
  await runAuthMatrix({ ...ctx, report }, TOKEN_TTL_SECONDS);
  console.info(report.format());
}, 120_000);

afterAll(async () => {
  await target?.close();
});

it('every operation × credential answers the documented status and leaks nothing', () => {
  expect(report.failures).toEqual([]);
  expect(report.failed('auth_matrix')).toBe(0);
});

it.each(spec.ir.operations.map((op) => op.id))('%s: at least 10 credential cases', (id) => {
  expect(report.cases('auth_matrix', id)).toBeGreaterThanOrEqual(10);
});

it('the answers of the matrix pass the response checks', () => {
  for (const check of ['not_a_server_error', 'status_code_conformance', 'response_schema_conformance'])
    expect(report.failed(check)).toBe(0);
  expect(target.backgroundErrors).toEqual([]);
});
