/**
 * `casi conformance` on this service's own spec: the contract checks, the stateful sequences and (in process) the
 * webhook checks and the auth matrix. Default target: an in-process reference server; a base URL and a write key
 * point it at another server of the API.
 */
import { UsageError } from '../generator/diagnostics.js';
import { FakeClock } from '../reference/clock.js';
import { runAuthMatrix } from './auth-matrix.js';
import { checkWebhooks, createContext, guarded, runContract } from './contract.js';
import { SetupError } from './fixtures.js';
import { KNOWN_DEFECTS } from './known-defects.js';
import { Report } from './report.js';
import { runStateful } from './stateful.js';
import { remoteTarget, startReference, type Target } from './target.js';
import { startWebhookReceiver } from './webhooks.js';

/** The webhook secret of the in-process server. */
const WEBHOOK_SECRET = 'conformance-webhook-secret';
/** Token lifetime of the in-process server of the auth matrix (its fake clock moves past it). */
const MATRIX_TOKEN_TTL_SECONDS = 600;

/** Where and how deep `runOurs` checks; the keys go with `baseUrl` (the write key is required there). */
export interface OursOptions {
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly readKey?: string | undefined;
  readonly otherOrgKey?: string | undefined;
  readonly runs: number;
  readonly seed: number;
  /** Where progress and notes go (standard error in the CLI). */
  readonly log: (line: string) => void;
}

/** Runs every check of this service's spec; `stopped` says why the run ended early, if it did. */
export async function runOurs(options: OursOptions): Promise<{ report: Report; stopped?: string; notes: string[] }> {
  const { baseUrl, apiKey, runs, seed, log } = options;
  if (baseUrl !== undefined && apiKey === undefined)
    throw new UsageError('--base-url needs a write key of that server: --auth bearer:KEY (or --api-key KEY)');
  const keyed = [
    apiKey && '--auth/--api-key',
    options.readKey && '--read-key',
    options.otherOrgKey && '--other-org-key',
  ];
  const stray = keyed.find((name) => name);
  if (baseUrl === undefined && stray)
    throw new UsageError(`${stray} goes with --base-url (the in-process server has its own keys)`);
  const notes: string[] = [];
  const inProcess = baseUrl === undefined;
  const report = new Report(KNOWN_DEFECTS);
  log(`conformance: ${inProcess ? 'in-process reference server' : baseUrl}, ${runs} cases per operation, seed ${seed}`);

  // In process, the server's webhooks go to a local receiver and are checked too.
  const receiver = inProcess ? await startWebhookReceiver() : undefined;
  const target: Target = receiver
    ? await startReference({ env: { CASI_WEBHOOK_URL: receiver.url, CASI_WEBHOOK_SECRET: WEBHOOK_SECRET } })
    : remoteTarget(baseUrl ?? '', {
        write: apiKey ?? '',
        ...(options.readKey === undefined ? {} : { read: options.readKey }),
        ...(options.otherOrgKey === undefined ? {} : { otherOrg: options.otherOrgKey }),
      });
  let stopped: string | undefined;
  try {
    const ctx = await runContract(target, report, { runs, seed, progress: log });
    if (receiver)
      await guarded(report, 'webhook_conformance', 'conversation.setup', () =>
        checkWebhooks(ctx, receiver, WEBHOOK_SECRET),
      );
    log('conformance: stateful sequences');
    await guarded(report, 'stateful', 'sequence', () =>
      runStateful(target, report, { runs: Math.max(20, Math.round(runs / 10)), seed }),
    );
    if (!inProcess && target.keys.read !== undefined && target.keys.otherOrg !== undefined) {
      await guarded(report, 'auth_matrix', 'set-up', async () => {
        const matrix = await createContext(target, new Report(), { runs: Math.min(runs, 40), seed });
        await runAuthMatrix({ ...matrix, report });
      });
      notes.push('auth_matrix: the expired-token cases need a fake clock (in process only)');
    }
  } catch (error) {
    stopped = stopReason(error, report, baseUrl);
  } finally {
    await target.close();
    await receiver?.close();
  }
  if (inProcess && stopped === undefined) {
    log('conformance: auth matrix');
    const clocked = await startReference({
      clock: new FakeClock(),
      env: { CASI_TOKEN_TTL_SECONDS: String(MATRIX_TOKEN_TTL_SECONDS) },
    });
    try {
      await guarded(report, 'auth_matrix', 'set-up', async () => {
        const ctx = await createContext(clocked, new Report(), { runs: Math.min(runs, 40), seed });
        await runAuthMatrix({ ...ctx, report }, MATRIX_TOKEN_TTL_SECONDS);
      });
    } finally {
      await clocked.close();
    }
  } else if (!inProcess && (target.keys.read === undefined || target.keys.otherOrg === undefined))
    notes.push('auth_matrix: skipped (give --read-key and --other-org-key to run it)');
  if (report.knownDefects.size > 0)
    notes.push('known: failures matching a pinned defect of the reference server (conformance/known-defects.ts)');
  return { report, notes, ...(stopped === undefined ? {} : { stopped }) };
}

/**
 * What to do when the resources every check starts from could not be made. A 2xx answer the spec refuses is the
 * server's failure: recorded (`response_schema_conformance` of that operation), the report printed, exit 1. No
 * answer or an error status is a set-up error (exit 2), named with the server and the request.
 */
function stopReason(error: unknown, report: Report, baseUrl: string | undefined): string {
  if (!(error instanceof SetupError)) throw error;
  const server = baseUrl === undefined ? 'the in-process reference server' : `the server at --base-url ${baseUrl}`;
  if (error.kind === 'invalid') {
    report.record('response_schema_conformance', error.operation, `creating the fixtures: ${error.message}`);
    return `the run stopped: the fixtures every check starts from could not be made on ${server}`;
  }
  const hint =
    error.kind === 'unreachable'
      ? ' (is the server running, and is the URL right?)'
      : /answered 40[13] /.test(error.message)
        ? ' (is --auth bearer:KEY a write key of that server?)'
        : '';
  throw new UsageError(`cannot make the fixtures on ${server}: ${error.message}${hint}`);
}
