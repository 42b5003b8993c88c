/** Model-based command sequences against the in-process reference server: server and model agree at every step. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runsFromEnv, seedFromEnv } from '../../conformance/contract.js';
import { Report } from '../../conformance/report.js';
import { runStateful } from '../../conformance/stateful.js';
import type { Target } from '../../conformance/target.js';
import { startTestReference } from './test-reference.js';

let target: Target;
beforeAll(async () => {
  target = await startTestReference();
});
afterAll(async () => {
  await target.close();
});

it('command sequences keep the server and the model in agreement', async () => {
  const report = new Report();
  const seed = seedFromEnv();
  await runStateful(target, report, { runs: Math.max(20, Math.round(runsFromEnv() / 10)), seed });
  expect(report.failures).toEqual([]);
  expect(report.cases('stateful')).toBeGreaterThanOrEqual(20);
  expect(target.backgroundErrors).toEqual([]);
}, 120_000);
