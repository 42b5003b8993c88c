/**
 * Rate limiting (`CASI_RATE_LIMIT` on the reference server): a burst over the limit gets 429 `rate_limited`
 * (transient) with the declared `Retry-After`, every answer passes the response checks, and a request made after
 * the wait it asked for succeeds.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Report } from '../../conformance/report.js';
import { toWire } from '../../conformance/requests.js';
import { checkResponse } from '../../conformance/response-checks.js';
import { loadConformanceSpec } from '../../conformance/spec.js';
import type { Target } from '../../conformance/target.js';
import { delay, send } from '../../conformance/wire.js';
import { startTestReference } from './test-reference.js';

const LIMIT_PER_SECOND = 5;
const BURST = 40;
const spec = await loadConformanceSpec();
let target: Target;
beforeAll(async () => {
  target = await startTestReference({ env: { CASI_RATE_LIMIT: String(LIMIT_PER_SECOND) } });
});
afterAll(async () => {
  await target.close();
});

it(`a burst of ${BURST} requests at ${LIMIT_PER_SECOND}/s is limited as declared, then served again`, async () => {
  // Any operation without parameters but the API version will do: the first GET of the IR that has none.
  const op = spec.ir.operations.find(
    (o) => o.method === 'get' && o.transport === 'http' && o.parameters.path.length + o.parameters.query.length === 0,
  );
  if (!op) throw new Error('the spec has no GET without parameters');
  const parts = { path: {}, query: {}, headers: { 'Service-Version': spec.ir.serviceVersion ?? '' } };
  const request = toWire(op, parts, { apiKey: target.keys.write });
  const report = new Report();
  const answers = await Promise.all(Array.from({ length: BURST }, () => send(target.baseUrl, request)));
  for (const answer of answers) checkResponse(spec, report, op, answer, 'burst');
  const limited = answers.filter((a) => a.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(LIMIT_PER_SECOND);
  expect(limited.every((a) => (a.json as { code?: unknown }).code === 'rate_limited')).toBe(true);
  expect(report.failures).toEqual([]);
  const wait = Math.max(...limited.map((a) => Number(a.headers['retry-after'])));
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
  await delay(wait * 1000);
  expect((await send(target.baseUrl, request)).status).toBe(200);
}, 90_000);
