/**
 * `casi conformance`: checks a running server against a spec and prints a table per check. This service's own spec
 * gets its full suite (`ours.ts`: in process without `--base-url`); any other spec the per-operation checks
 * (`any-spec/run.ts`). Exit 0 when every check passed, 1 when one failed, 2 on a usage error or an unusable spec.
 */
import { writeFile } from 'node:fs/promises';
import { routes as referenceRoutes } from '../generated/src/server.gen.js';
import { UsageError } from '../generator/diagnostics.js';
import type { Ir } from '../generator/ir/model.js';
import { runAnySpec } from './any-spec/run.js';
import { parseAuth } from './auth-option.js';
import { KnobError, parseRuns, parseSeed, runsFromEnv, seedFromEnv } from './contract.js';
import { runOurs } from './ours.js';
import { jsonReport, junitXml, type RunInfo, summary } from './output.js';
import type { Report } from './report.js';
import { usableModel } from './usable-model.js';

/** The command's options, as the CLI gives them (strings, unchecked). */
export interface ConformanceArgs {
  readonly openapi?: string | undefined;
  readonly asyncapi?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly auth?: string | undefined;
  readonly auth2?: string | undefined;
  readonly 'api-key'?: string | undefined;
  readonly 'read-key'?: string | undefined;
  readonly 'other-org-key'?: string | undefined;
  readonly runs?: string | undefined;
  readonly seed?: string | undefined;
  readonly junit?: string | undefined;
  readonly json?: string | undefined;
}

/** Where the command writes: the summary (standard output) and progress lines (standard error). */
export interface ConformanceOutput {
  readonly out: (text: string) => void;
  readonly err: (line: string) => void;
}

const PROCESS_OUTPUT: ConformanceOutput = {
  out: (text) => process.stdout.write(text),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the command; resolves to its exit code. */
export async function runConformance(args: ConformanceArgs, output = PROCESS_OUTPUT): Promise<number> {
  const runs = knob(() => (args.runs === undefined ? runsFromEnv() : parseRuns(args.runs, '--runs')));
  const seed = knob(() => (args.seed === undefined ? seedFromEnv() : parseSeed(args.seed, '--seed')));
  const auth = args.auth === undefined ? undefined : parseAuth(args.auth);
  const auth2 = args.auth2 === undefined ? undefined : parseAuth(args.auth2, '--auth2');
  const baseUrl = args['base-url'];
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const { ir, asyncapi } = await usableModel(args);
  const log = output.err;
  let result: { report: Report; notes: string[]; stopped?: string };
  if (isOurSpec(ir)) {
    const apiKey =
      args['api-key'] ?? (auth?.kind === 'bearer' ? auth.token : auth?.kind === 'apikey' ? auth.value : undefined);
    if (auth !== undefined && apiKey === undefined)
      throw new UsageError('this service takes its API key as a bearer token: give --auth bearer:KEY');
    result = await runOurs({
      baseUrl,
      apiKey,
      readKey: args['read-key'],
      otherOrgKey: args['other-org-key'],
      runs,
      seed,
      log,
    });
  } else {
    if (baseUrl === undefined)
      throw new UsageError('name the server to check with --base-url URL (only this service has an in-process server)');
    log(`conformance: ${baseUrl}, ${ir.title}, ${runs} generated cases per operation, seed ${seed}`);
    result = await runAnySpec(ir, { baseUrl, auth, auth2, runs, seed, log, asyncapi });
  }
  const info: RunInfo = {
    target: baseUrl ?? 'in-process reference server',
    runs,
    seed,
    stopped: result.stopped,
  };
  for (const note of result.notes) log(note);
  if (result.stopped !== undefined) log(`conformance: ${result.stopped}`);
  output.out(`${summary(result.report)}\n`);
  if (args.junit !== undefined) await writeFile(args.junit, junitXml(result.report, info));
  if (args.json !== undefined) await writeFile(args.json, jsonReport(result.report, info));
  return result.report.totalFailed === 0 && result.stopped === undefined ? 0 : 1;
}

/** Whether `ir` is a version of this service's spec: its `Service-Version` and every operation the reference serves. */
function isOurSpec(ir: Ir): boolean {
  const ids = new Set(ir.operations.map((op) => op.id));
  return ir.serviceVersion !== undefined && referenceRoutes.every((route) => ids.has(route.operationId));
}

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
