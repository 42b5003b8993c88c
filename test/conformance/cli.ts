/**
 * `npm run conformance`: runs the contract checks, the stateful sequences and (in process) the webhook checks and
 * the auth matrix, prints a table per check (cases, passed, failed, known) and exits 1 on any failure. Default
 * target: an in-process reference server; `--base-url URL --api-key KEY` points it at another server of the API.
 */
import { parseArgs } from 'node:util';
import { runAuthMatrix } from '../../conformance/auth-matrix.js';
import {
  checkWebhooks,
  createContext,
  guarded,
  KnobError,
  parseRuns,
  parseSeed,
  runContract,
  runsFromEnv,
  seedFromEnv,
} from '../../conformance/contract.js';
import { SetupError } from '../../conformance/fixtures.js';
import { KNOWN_DEFECTS } from '../../conformance/known-defects.js';
import { Report } from '../../conformance/report.js';
import { runStateful } from '../../conformance/stateful.js';
import { remoteTarget, startReference, type Target } from '../../conformance/target.js';
import { startWebhookReceiver } from '../../conformance/webhooks.js';
import { FakeClock } from '../../reference/clock.js';

const USAGE = `Usage: npm run conformance -- [--base-url URL --api-key KEY] [--runs N] [--seed N]

  --base-url URL   the server under test (default: an in-process reference server on 127.0.0.1)
  --api-key KEY    a write API key of that server (required with --base-url)
  --read-key KEY   with --other-org-key: a read-only key of the same organisation, to run the auth matrix there
  --other-org-key KEY  a write key of another organisation (the matrix checks nothing of the first leaks to it)
  --runs N         generated cases per operation, a positive integer (default: CONFORMANCE_RUNS or 200); the
                   spec's own example requests are sent first, besides these
  --seed N         fast-check seed, an integer, to replay a run (default: CONFORMANCE_SEED or random)
  --help           this text

Exit status: 0 when every check passed, 1 when one failed, 2 on a usage or set-up error.`;

/** The webhook secret of the in-process server. */
const WEBHOOK_SECRET = 'conformance-webhook-secret';
/** Token lifetime of the in-process server of the auth matrix (its fake clock moves past it). */
const MATRIX_TOKEN_TTL_SECONDS = 600;

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-key': { type: 'string' },
      'other-org-key': { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const baseUrl = values['base-url'];
  const apiKey = values['api-key'];
  if ((baseUrl === undefined) !== (apiKey === undefined)) throw new UsageError('--base-url and --api-key go together');
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  // Each knob is named as the user gave it: the option, else the environment variable.
  const runs = knob(() => (values.runs === undefined ? runsFromEnv() : parseRuns(values.runs, '--runs')));
  const seed = knob(() => (values.seed === undefined ? seedFromEnv() : parseSeed(values.seed, '--seed')));
  const inProcess = baseUrl === undefined;
  const report = new Report(KNOWN_DEFECTS);
  console.log(
    `conformance: ${inProcess ? 'in-process reference server' : baseUrl}, ${runs} cases per operation, seed ${seed}`,
  );

  // In process, the server's webhooks go to a local receiver and are checked too.
  const receiver = inProcess ? await startWebhookReceiver() : undefined;
  const target: Target = receiver
    ? await startReference({ env: { CASI_WEBHOOK_URL: receiver.url, CASI_WEBHOOK_SECRET: WEBHOOK_SECRET } })
    : remoteTarget(baseUrl ?? '', {
        write: apiKey ?? '',
        ...(values['read-key'] === undefined ? {} : { read: values['read-key'] }),
        ...(values['other-org-key'] === undefined ? {} : { otherOrg: values['other-org-key'] }),
      });
  let stopped: string | undefined;
  try {
    const ctx = await runContract(target, report, { runs, seed });
    if (receiver)
      await guarded(report, 'webhook_conformance', 'conversation.setup', () =>
        checkWebhooks(ctx, receiver, WEBHOOK_SECRET),
      );
    await guarded(report, 'stateful', 'sequence', () =>
      runStateful(target, report, { runs: Math.max(20, Math.round(runs / 10)), seed }),
    );
    if (!inProcess && target.keys.read !== undefined && target.keys.otherOrg !== undefined) {
      await guarded(report, 'auth_matrix', 'set-up', async () => {
        const matrix = await createContext(target, new Report(), { runs: Math.min(runs, 40), seed });
        await runAuthMatrix({ ...matrix, report });
      });
      console.log('auth_matrix: the expired-token cases need a fake clock (in process only)');
    }
  } catch (error) {
    stopped = stopReason(error, report, baseUrl);
  } finally {
    await target.close();
    await receiver?.close();
  }
  if (inProcess && stopped === undefined) {
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
    console.log('auth_matrix: skipped (give --read-key and --other-org-key to run it)');
  console.log(report.format());
  if (report.knownDefects.size > 0)
    console.log('known: failures matching a pinned defect of the reference server (test/conformance/known-defects.ts)');
  if (stopped !== undefined) console.log(`conformance: ${stopped}`);
  console.log(`${report.totalFailed === 0 ? 'PASS' : 'FAIL'}: ${report.totalFailed} failed case(s)`);
  return report.totalFailed === 0 ? 0 : 1;
}

class UsageError extends Error {}

/** `--base-url` must be an absolute http(s) URL (a path prefix is allowed). */
function checkBaseUrl(baseUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(`--base-url must be an http:// or https:// URL, not ${JSON.stringify(baseUrl)}`);
}

/** A knob's value; a value of the wrong form is a usage error. */
function knob(read: () => number): number {
  try {
    return read();
  } catch (error) {
    if (error instanceof KnobError) throw new UsageError(error.message);
    throw error;
  }
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
        ? ' (is --api-key a write key of that server?)'
        : '';
  throw new Error(`cannot make the fixtures on ${server}: ${error.message}${hint}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(
      `conformance: ${error instanceof Error ? error.message : String(error)}${usage ? `\n\n${USAGE}` : ''}`,
    );
    process.exit(2);
  },
);
