/**
 * The contract run: fixtures first, then for every operation of the IR generated valid requests, mutations, header
 * and credential probes, then undeclared methods on every path and use after DELETE. Everything lands in a `Report`.
 */
import type { ContractContext } from './context.js';
import { orderedOperations } from './context.js';
import { checkDeepNesting } from './deep-nesting.js';
import { checkedCall, clientFor, createFixtures } from './fixtures.js';
import { checkFrameworkAnswers } from './framework-answers.js';
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
import { delay, networkErrorText } from './wire.js';

/** Generated cases per operation when `CONFORMANCE_RUNS` is not set. */
export const DEFAULT_RUNS = 200;

/** A value the user gave for a knob that is not of its form; `name` is how they gave it (`--runs`, `CONFORMANCE_RUNS`). */
export class KnobError extends Error {}

/** Cases per operation from `value` given as `name`: a positive integer; unset or empty gives the default. */
export function parseRuns(value: string | undefined, name: string): number {
  if (value === undefined || value === '') return DEFAULT_RUNS;
  const runs = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(runs) || runs < 1)
    throw new KnobError(`${name} must be a positive integer, not ${JSON.stringify(value)}`);
  return runs;
}

/** The fast-check seed from `value` given as `name`: an integer; unset or empty gives a fresh random one. */
export function parseSeed(value: string | undefined, name: string): number {
  if (value === undefined || value === '') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(seed))
    throw new KnobError(
      `${name} must be an integer (the seed a run printed, to replay it), not ${JSON.stringify(value)}`,
    );
  return seed;
}

/** `CONFORMANCE_RUNS` (a positive integer) or the default. */
export function runsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return parseRuns(env.CONFORMANCE_RUNS, 'CONFORMANCE_RUNS');
}

/** `CONFORMANCE_SEED` (an integer, to replay a run) or a fresh seed. */
export function seedFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return parseSeed(env.CONFORMANCE_SEED, 'CONFORMANCE_SEED');
}

/**
 * Runs one part of a run. An error it throws — a connection the generated client saw dropped, an answer it could
 * not go on from — is recorded as a failed case of `check` on `operation`, and the run goes on with the next part.
 */
export async function guarded(
  report: Report,
  check: string,
  operation: string,
  part: () => Promise<void>,
): Promise<void> {
  try {
    await part();
  } catch (error) {
    report.record(check, operation, `stopped by an error: ${networkErrorText(error)}`);
  }
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

/** Runs every contract check against `target` into `report`; answers the run's shared state. `progress` hears of each operation. */
export async function runContract(
  target: Target,
  report: Report,
  options: { readonly runs: number; readonly seed: number; readonly progress?: (line: string) => void },
): Promise<ContractContext> {
  const ctx = await createContext(target, report, options);
  const { spec } = ctx;
  const operations = orderedOperations(spec);
  for (const [index, op] of operations.entries()) {
    options.progress?.(
      `conformance: [${index + 1}/${operations.length}] ${op.id} (${op.method.toUpperCase()} ${op.path})`,
    );
    await guarded(report, 'positive_data_acceptance', op.id, () => checkPositive(ctx, op));
    await guarded(report, 'negative_data_rejection', op.id, () => checkNegative(ctx, op));
    const good = ctx.goodRequests.get(op.id);
    if (good) {
      await guarded(report, 'missing_required_header', op.id, () => checkHeaders(ctx, op, good));
      await guarded(report, 'deep_nesting', op.id, () => checkDeepNesting(ctx, op));
      await guarded(report, 'ignored_auth', op.id, () => checkAuthRequired(ctx, op, good));
    } else
      report.record(
        'positive_data_acceptance',
        op.id,
        `no request of ${op.id} got a 2xx answer (neither the spec's examples nor the generated ones)`,
      );
  }
  options.progress?.('conformance: methods, framework answers, pagination, round trips, deletes, sessions');
  await guarded(report, 'unsupported_method', 'every path', () => checkMethods(ctx, spec.ir.operations));
  await guarded(report, 'framework_error_shape', 'around the operations', () => checkFrameworkAnswers(ctx));
  await guarded(report, 'pagination', 'every list', () => checkPagination(ctx));
  await guarded(report, 'round_trip', 'every write', () => checkRoundTrips(ctx));
  await guarded(report, 'use_after_free', 'every delete', () => checkUseAfterFree(ctx));
  const sessions = spec.ir.operations.filter((o) => o.transport === 'websocket').map((o) => o.id);
  await guarded(report, 'client_event_acceptance', sessions.join(', '), () => checkSessionFrames(ctx));
  return ctx;
}

/** Most time given to webhook deliveries still in flight after a run. */
const WEBHOOK_SETTLE_MS = 5000;

/** Lists every conversation of the run, waits for their webhooks (bounded), and checks every delivery. */
export async function checkWebhooks(ctx: ContractContext, receiver: WebhookReceiver, secret: string): Promise<void> {
  const client = clientFor(ctx.target.baseUrl, ctx.target.keys.write);
  const ids: string[] = [];
  const walk = async () => {
    for await (const conversation of client.conversations.list({ limit: 100 })) ids.push(conversation.id);
  };
  await checkedCall(ctx.spec, client, 'listConversations', walk, false);
  const deadline = Date.now() + WEBHOOK_SETTLE_MS;
  while (receiver.deliveries.length < ids.length && Date.now() < deadline) await delay(20);
  checkDeliveries(ctx.spec, ctx.report, receiver.deliveries, secret, ids);
}
