/**
 * `positive_data_acceptance`: requests generated from the schemas are accepted — a 2xx, or one of the documented
 * domain errors a schema-valid request can still meet (unknown ids, rules beyond the schema). Every answer also goes
 * through the response checks.
 */
import fc from 'fast-check';
import type { IrOperation } from '../generator/ir/model.js';
import { forEachLimit } from './concurrency.js';
import type { ContractContext } from './context.js';
import { curlCommand } from './curl.js';
import { exampleRequests } from './examples.js';
import { describeRequest, type RequestParts, requestArbitrary, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { describeAnswer, isSuccess, send, type WireResponse } from './wire.js';

/**
 * Error codes a schema-valid request may get, and why (spec/DECISIONS.md, reference/README.md) — on an operation
 * only when it declares the code's status (so `conversation_ended` only where 409 is declared, `not_found` only
 * where 404 is). Any other 4xx answer to a valid request fails the check.
 */
export const ACCEPTED_ERROR_CODES: Readonly<Record<string, string>> = {
  not_found: 'a generated id, or one deleted earlier in the run, names no resource of the organisation',
  language_not_supported: "a generated configuration's default_language is not among its supported_languages",
  agent_not_released: 'the agent named has no released version',
  conversation_ended: 'context injection after the conversation ended',
  unknown_event_id: 'a generated Last-Event-ID / last_event_id names no event of the conversation',
  event_stream_expired: "the conversation's events are past retention",
};

/**
 * `invalid_request` issues (`in` and pointer) a schema-valid request may still get: rules a schema cannot express.
 * A `cursor` must be one the service returned; entries of `postprocess_agents` must name procedural agents of the
 * organisation; `override_config` merged into the agent's configuration must still be a valid configuration
 * (reference/README.md, "Other choices made here").
 */
export const ACCEPTED_INVALID_ISSUES: readonly { readonly in: string; readonly pointer: RegExp }[] = [
  { in: 'query', pointer: /^\/cursor$/ },
  { in: 'body', pointer: /^\/postprocess_agents(\/|$)/ },
  { in: 'body', pointer: /^\/override_config(\/|$)/ },
];

/**
 * Sends the spec's example requests of `op` (`examples.ts`, one after the other, so the first accepted becomes the
 * good request), then `ctx.runs` generated ones, recording the response checks and the acceptance check.
 */
export async function checkPositive(ctx: ContractContext, op: IrOperation): Promise<void> {
  const one = async (parts: RequestParts, label: string) => {
    const request = toWire(op, parts, { apiKey: ctx.target.keys.write });
    const context = `${label}${describeRequest(request)}`;
    const response = await send(ctx.target.baseUrl, request);
    const replay = curlCommand(ctx.target.baseUrl, request);
    checkResponse(ctx.spec, ctx.report, op, response, context, parts.path, replay);
    const problem = acceptanceProblem(op, response);
    ctx.report.record('positive_data_acceptance', op.id, problem && `${context} → ${problem}`, replay);
    if (isSuccess(response) && !ctx.goodRequests.has(op.id)) ctx.goodRequests.set(op.id, parts);
  };
  for (const parts of exampleRequests(ctx.spec, op, ctx.fixtures.ids, ctx.seed)) await one(parts, 'spec example: ');
  const samples = fc.sample(requestArbitrary(ctx.spec, op, ctx.overrides), { numRuns: ctx.runs, seed: ctx.seed });
  await forEachLimit(samples, op.transport !== 'http' ? 16 : 6, (parts) => one(parts, ''));
}

/** Why `response` does not accept a valid request of `op`, or undefined when it does. */
export function acceptanceProblem(op: IrOperation, response: WireResponse): string | undefined {
  if (isSuccess(response)) return undefined;
  const body = response.json as { code?: unknown; data?: unknown } | undefined;
  const code = typeof body?.code === 'string' ? body.code : '';
  const declared = op.responses.some((r) => r.status === String(response.status));
  if (declared && response.status < 500 && code in ACCEPTED_ERROR_CODES) return undefined;
  if (response.status === 400 && code === 'invalid_request' && Array.isArray(body?.data)) {
    const issues = body.data as { in?: unknown; pointer?: unknown }[];
    const accepted = (issue: { in?: unknown; pointer?: unknown }) =>
      ACCEPTED_INVALID_ISSUES.some((a) => a.in === issue.in && a.pointer.test(String(issue.pointer)));
    if (issues.length > 0 && issues.every(accepted)) return undefined;
  }
  return describeAnswer(response);
}
