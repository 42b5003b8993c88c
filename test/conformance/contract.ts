/**
 * The contract run: fixtures first, then for every operation of the IR generated valid requests, mutations, header
 * and credential probes, then undeclared methods on every path and use after DELETE. Everything lands in a `Report`.
 */
import type { ContractContext } from './context.js';
import { orderedOperations } from './context.js';
import { checkDeepNesting } from './deep-nesting.js';
import { clientFor, createFixtures } from './fixtures.js';
import { checkNegative } from './negative.js';
import { checkPagination } from './pagination.js';
import { checkPositive } from './positive.js';
import { checkAuthRequired, checkHeaders, checkMethods } from './protocol.js';
import type { Report } from './report.js';
import { idOverrides } from './requests.js';
import { checkRoundTrips } from './round-trip.js';
import { checkSessionFrames } from './session-frames.js';
import { loadConformanceSpec } from './spec.js';
import type { Target } from './target.js';
import { checkUseAfterFree } from './use-after-free.js';
import { checkDeliveries, type WebhookReceiver } from './webhooks.js';
import { delay } from './wire.js';

/** Generated cases per operation when `CONFORMANCE_RUNS` is not set. */
export const DEFAULT_RUNS = 200;

/** `CONFORMANCE_RUNS` (a positive integer) or the default. */
export function runsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.CONFORMANCE_RUNS ?? DEFAULT_RUNS);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`CONFORMANCE_RUNS must be a positive integer, not ${env.CONFORMANCE_RUNS}`);
  return value;
}

/** `CONFORMANCE_SEED` (to replay a run) or a fresh seed. */
export function seedFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.CONFORMANCE_SEED);
  return Number.isSafeInteger(value) ? value : Math.floor(Math.random() * 2 ** 31);
}

/** Creates the fixtures on `target` and the run's shared state. */
export async function createContext(
  target: Target,
  report: Report,
  options: { readonly runs: number; readonly seed: number },
): Promise<ContractContext> {
  const spec = await loadConformanceSpec();
  const fixtures = await createFixtures(clientFor(target.baseUrl, target.keys.write));
  return {
    spec,
    target,
    report,
    fixtures,
    overrides: idOverrides(spec, fixtures.ids),
    runs: options.runs,
    seed: options.seed,
    goodRequests: new Map(),
  };
}

/** Runs every contract check against `target` into `report`; answers the run's shared state. */
export async function runContract(
  target: Target,
  report: Report,
  options: { readonly runs: number; readonly seed: number },
): Promise<ContractContext> {
  const ctx = await createContext(target, report, options);
  const { spec } = ctx;
  for (const op of orderedOperations(spec)) {
    await checkPositive(ctx, op);
    await checkNegative(ctx, op);
    const good = ctx.goodRequests.get(op.id);
    if (good) {
      await checkHeaders(ctx, op, good);
      await checkDeepNesting(ctx, op);
      await checkAuthRequired(ctx, op, good);
    } else report.record('positive_data_acceptance', op.id, `no generated request of ${op.id} got a 2xx answer`);
  }
  await checkMethods(ctx, spec.ir.operations);
  await checkPagination(ctx);
  await checkRoundTrips(ctx);
  await checkUseAfterFree(ctx);
  await checkSessionFrames(ctx);
  return ctx;
}

/** Most time given to webhook deliveries still in flight after a run. */
const WEBHOOK_SETTLE_MS = 5000;

/** Lists every conversation of the run, waits for their webhooks (bounded), and checks every delivery. */
export async function checkWebhooks(ctx: ContractContext, receiver: WebhookReceiver, secret: string): Promise<void> {
  const client = clientFor(ctx.target.baseUrl, ctx.target.keys.write);
  const ids: string[] = [];
  for await (const conversation of client.conversations.list({ limit: 100 })) ids.push(conversation.id);
  const deadline = Date.now() + WEBHOOK_SETTLE_MS;
  while (receiver.deliveries.length < ids.length && Date.now() < deadline) await delay(20);
  checkDeliveries(ctx.spec, ctx.report, receiver.deliveries, secret, ids);
}
