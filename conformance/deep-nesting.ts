/**
 * `deep_nesting`: a schema-valid body whose free-form member (an object that takes members of any shape, such as
 * `context` or `output_schema`) holds a value nested NESTING_DEPTH levels deep — valid JSON of a few tens of KB —
 * must not break the server: a 2xx, or a 4xx refusal with an `Error`, never a 5xx. Bodies searched: the good one and
 * a few generated ones (optional free-form members appear in some).
 */
import fc from 'fast-check';
import type { IrOperation } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { freeFormPaths, withMember } from './mutations.js';
import { describeRequest, type RequestParts, requestArbitrary, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { describeAnswer, isSuccess, send } from './wire.js';

/** How deep the probe nests arrays (well inside the 1 MiB body limit: two bytes per level). */
export const NESTING_DEPTH = 10_000;
/** Generated bodies searched for free-form members besides the good one (which may lack optional ones). */
const BODY_SAMPLES = 8;
/** The member the probe adds. */
const MEMBER = 'conformance_deep';

/** Stands for the nested value until the body is text (JSON.stringify itself overflows on such depths). */
const PLACEHOLDER = 'conformance_deep_placeholder';

/** Probes every free-form member of the good body of `op`. */
export async function checkDeepNesting(ctx: ContractContext, op: IrOperation): Promise<void> {
  const good = ctx.goodRequests.get(op.id);
  const schema = op.requestBody?.schema;
  if (!good || !schema) return;
  const deep = `${'['.repeat(NESTING_DEPTH)}${']'.repeat(NESTING_DEPTH)}`;
  const samples = fc.sample(requestArbitrary(ctx.spec, op, ctx.overrides), { numRuns: BODY_SAMPLES, seed: ctx.seed });
  const probes = new Map<string, { path: string[]; parts: RequestParts }>();
  for (const parts of [good, ...samples])
    for (const path of freeFormPaths(schema, parts.body, ctx.spec.walkOptions))
      if (!probes.has(path.join('/'))) probes.set(path.join('/'), { path, parts });
  for (const { path, parts } of probes.values()) {
    const body = withMember(parts.body, path, MEMBER, PLACEHOLDER);
    const wire = toWire(op, { ...parts, body }, { apiKey: ctx.target.keys.write });
    const request = { ...wire, body: wire.body?.replace(JSON.stringify(PLACEHOLDER), deep) };
    const context = `deeply nested (${NESTING_DEPTH} levels) /${[...path, MEMBER].join('/')}: ${describeRequest(request).slice(0, 200)}`;
    const response = await send(ctx.target.baseUrl, request);
    checkResponse(ctx.spec, ctx.report, op, response, context);
    const refused =
      response.status >= 400 && response.status < 500 && ctx.spec.validator('Error')?.(response.json) === true;
    const problem = isSuccess(response) || refused ? undefined : describeAnswer(response, 200);
    ctx.report.record('deep_nesting', op.id, problem && `${context} → ${problem}`);
  }
}
