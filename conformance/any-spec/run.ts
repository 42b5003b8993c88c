/**
 * `casi conformance` on any spec: for every HTTP operation, its examples, then generated valid requests, then
 * invalid variants of the valid ones; every answer checked (`checks.ts`), every failure kept with its `curl` replay.
 * Then the sequences its `links` describe (`links.ts`), create → … → delete sequences where none do (`crud.ts`),
 * and its AsyncAPI channels (`channels.ts`).
 */
import { UsageError } from '../../generator/diagnostics.js';
import type { Ir } from '../../generator/ir/model.js';
import { type AuthOption, credentialParts } from '../auth-option.js';
import { curlCommand } from '../curl.js';
import { Report } from '../report.js';
import { describeRequest } from '../requests.js';
import { describeAnswer, send } from '../wire.js';
import { checkChannels } from './channels.js';
import { checkAnswer } from './checks.js';
import { type CrudRunner, runCrudSequences } from './crud.js';
import { checkLeaks, createReadPairs } from './leak.js';
import { followLinks } from './links.js';
import {
  type AnyRequest,
  exampleRequests,
  generatedRequests,
  invalidRequests,
  requestArbitrary,
  sendableBody,
  toWire,
} from './requests.js';
import { specSchemas } from './schemas.js';
import { shrunkFailure } from './shrink.js';

/** What `runAnySpec` checks and how. */
export interface AnySpecOptions {
  readonly baseUrl: string;
  readonly auth: AuthOption | undefined;
  /** A second identity: what `auth` creates must not be readable with it. */
  readonly auth2?: AuthOption | undefined;
  /** Generated valid requests per operation; as many invalid ones at most. */
  readonly runs: number;
  readonly seed: number;
  /** Where progress goes (standard error in the CLI). */
  readonly log: (line: string) => void;
  /** The AsyncAPI document as parsed, for its message examples. */
  readonly asyncapi?: unknown;
}

/** Runs the checks on every HTTP operation of `ir` against the server at `baseUrl`; notes say what was left out. */
export async function runAnySpec(ir: Ir, options: AnySpecOptions): Promise<{ report: Report; notes: string[] }> {
  const schemas = specSchemas(ir);
  const report = new Report();
  const notes: string[] = [];
  const operations = ir.operations.filter((op) => {
    if (op.transport !== 'http') notes.push(`${op.id}: ${op.transport} operations are not checked yet`);
    else if (!sendableBody(op)) notes.push(`${op.id}: a ${op.requestBody?.contentType} body is not generated yet`);
    else return true;
    return false;
  });
  // The first request must get an answer: a server that is not there is a set-up error, not a failure per case.
  let answered = operations.length === 0;
  for (const [index, op] of operations.entries()) {
    const credential = credentialParts(ir, op, options.auth);
    /** Sends `request` and judges its answer, recording nothing yet. */
    const judge = async (request: AnyRequest, invalid?: string) => {
      const wire = toWire(op, request, credential);
      const response = await send(options.baseUrl, wire);
      if (!answered && response.error !== undefined)
        throw new UsageError(
          `no answer from --base-url ${options.baseUrl}: ${response.error} (is the server running, and is the URL right?)`,
        );
      answered = true;
      const verdicts = checkAnswer(schemas, op, response, invalid !== undefined);
      const failed = new Set(verdicts.filter((v) => v.problem !== undefined).map((v) => v.check));
      const shown = `${invalid ? `(${invalid}) ` : ''}${describeRequest(wire)} → ${describeAnswer(response)}`;
      return { verdicts, failed, shown, replay: curlCommand(options.baseUrl, wire) };
    };
    const record = (judged: Awaited<ReturnType<typeof judge>>, label = '') => {
      for (const verdict of judged.verdicts)
        report.record(
          verdict.check,
          op.id,
          verdict.problem && `${label}${verdict.problem}: ${judged.shown}`,
          verdict.problem && judged.replay,
        );
    };
    const exchange = async (request: AnyRequest, invalid?: string) => record(await judge(request, invalid));
    const opSeed = options.seed + index;
    const examples = exampleRequests(ir, schemas, op, opSeed);
    const generated = generatedRequests(schemas, op, options.runs, opSeed);
    const valid = [...examples, ...generated];
    options.log(`conformance: [${index + 1}/${operations.length}] ${op.id} (${op.method.toUpperCase()} ${op.path})`);
    const judgedExamples = [];
    for (const request of examples) judgedExamples.push(await judge(request));
    const judgedGenerated = [];
    for (const request of generated) judgedGenerated.push(await judge(request));
    // Each check a generated request failed is shown first by its shrunk request (a case of its own).
    const unshrunk = new Set(judgedGenerated.flatMap((j) => [...j.failed]));
    for (const check of unshrunk) {
      const shrunk = await shrunkFailure(requestArbitrary(schemas, op), judge, check, opSeed, options.runs);
      if (shrunk === undefined) continue;
      record(shrunk.judged, '(shrunk) ');
      // The checks this small request fails too need no search of their own.
      for (const also of shrunk.judged.failed) unshrunk.delete(also);
    }
    for (const judged of [...judgedExamples, ...judgedGenerated]) record(judged);
    let invalidSent = 0;
    for (const request of valid) {
      for (const { request: bad, why } of invalidRequests(schemas, op, request)) {
        if (invalidSent >= options.runs) break;
        await exchange(bad, why);
        invalidSent++;
      }
      if (invalidSent >= options.runs) break;
    }
  }
  const runner: CrudRunner = {
    baseUrl: options.baseUrl,
    example: (op) => exampleRequests(ir, schemas, op, options.seed)[0],
    generated: (op, seed) => generatedRequests(schemas, op, 1, seed)[0] as AnyRequest,
    exchange: async (op, request) => {
      const wire = toWire(op, request, credentialParts(ir, op, options.auth));
      return { wire, response: await send(options.baseUrl, wire) };
    },
  };
  const followed = await followLinks(ir, schemas, operations, runner, report);
  if (followed > 0) options.log(`conformance: followed ${followed} link(s) between operations`);
  notes.push(...(await runCrudSequences(ir, schemas, operations, runner, report, options.seed)));
  const { auth2 } = options;
  if (auth2 !== undefined) {
    const pairs = createReadPairs(ir, operations);
    if (pairs.length === 0) notes.push('--auth2: the spec has no create/read pair to check for leaks');
    await checkLeaks(
      pairs,
      {
        baseUrl: options.baseUrl,
        example: (op) => exampleRequests(ir, schemas, op, options.seed)[0],
        exchange: async (op, request, identity) => {
          const wire = toWire(op, request, credentialParts(ir, op, identity === 1 ? options.auth : auth2));
          return { wire, response: await send(options.baseUrl, wire) };
        },
      },
      report,
    );
  }
  notes.push(...(await checkChannels(ir, schemas, report, { ...options, asyncapi: options.asyncapi })));
  return { report, notes };
}
