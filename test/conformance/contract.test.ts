/** The Schemathesis-style contract checks of every operation of the IR against the in-process reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from '../../conformance/context.js';
import { checkWebhooks, runContract, runsFromEnv, seedFromEnv } from '../../conformance/contract.js';
import { KNOWN_DEFECTS } from '../../conformance/known-defects.js';
import { Report } from '../../conformance/report.js';
import { RESPONSE_CHECKS } from '../../conformance/response-checks.js';
import { loadConformanceSpec } from '../../conformance/spec.js';
import type { Target } from '../../conformance/target.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../conformance/webhooks.js';
import { startTestReference } from './test-reference.js';

const spec = await loadConformanceSpec();
const runs = runsFromEnv();
const seed = seedFromEnv();
const report = new Report(KNOWN_DEFECTS);
let target: Target;
let ctx: ContractContext;
let receiver: WebhookReceiver;
const WEBHOOK_SECRET = 'conformance-webhook-secret';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  target = await startTestReference({ env: { CASI_WEBHOOK_URL: receiver.url, CASI_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  ctx = await runContract(target, report, { runs, seed });
  await checkWebhooks(ctx, receiver, WEBHOOK_SECRET);
  console.info(`conformance seed ${seed} (CONFORMANCE_SEED=${seed} replays it)\n${report.format()}`);
}, 180_000);

afterAll(async () => {
  await target?.close();
  await receiver?.close();
});

const CHECKS = [
  ...RESPONSE_CHECKS,
  'positive_data_acceptance',
  'negative_data_rejection',
  'deep_nesting',
  'missing_required_header',
  'ignored_auth',
  'unsupported_method',
  'head_like_get',
  'framework_error_shape',
  'pagination',
  'round_trip',
  'use_after_free',
  'webhook_conformance',
  'client_event_acceptance',
  'client_event_rejection',
];

describe('contract checks', () => {
  it.each(CHECKS)('%s: cases run, none failed', (check) => {
    expect(report.cases(check)).toBeGreaterThan(0);
    expect(report.failures.filter((f) => f.check === check)).toEqual([]);
    expect(report.failed(check)).toBe(0);
  });

  it.each(spec.ir.operations.map((op) => op.id))('%s: generated cases, one at least accepted with a 2xx', (id) => {
    expect(report.cases('positive_data_acceptance', id)).toBeGreaterThanOrEqual(runs);
    expect(ctx.goodRequests.has(id)).toBe(true);
  });

  it('the server reported no background error', () => {
    expect(target.backgroundErrors).toEqual([]);
  });
});
