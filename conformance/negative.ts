/**
 * `negative_data_rejection`: mutations of a good request of each operation — of its body, path, query and header
 * parameters — and malformed or oversized bodies are refused with 400 (413 for size) and an `Error` whose `data`
 * names the parameter location and JSON pointer of the change.
 */
import fc from 'fast-check';
import type { IrOperation, IrParameter, JsonSchema } from '../generator/ir/model.js';
import { forEachLimit } from './concurrency.js';
import type { ContractContext } from './context.js';
import { curlCommand } from './curl.js';
import { EXTRA_MEMBER, type Mutant, mutate, pointsAt, stringMutations } from './mutations.js';
import { describeRequest, type RequestParts, requestArbitrary, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { refName, SERVICE_VERSION_SCHEMA } from './spec.js';
import { describeAnswer, send, type WireRequest, type WireResponse } from './wire.js';

/** One negative case: the request sent and what its answer must be. */
interface NegativeCase {
  readonly label: string;
  readonly request: WireRequest;
  readonly status: number;
  readonly code: string;
  /** Where the error must point (`in` and a mutant), for `invalid_request`. */
  readonly blame?: { readonly in: string; readonly mutant: Pick<Mutant, 'pointer' | 'unionPointer'> };
  /**
   * The connection closed or reset by the server (or a proxy before it) in place of an answer counts as the refusal:
   * RFC 9110 (15.5.14, 413 Content Too Large) lets a server close the connection rather than read a body it refuses,
   * and a client still sending cannot always read the 413 sent before the close. A refused connection or no answer
   * in time still fails.
   */
  readonly closeRefuses?: boolean;
}

/** Bodies of a few generated requests are mutated besides the good one, for variety. */
const EXTRA_BODY_SAMPLES = 2;
/** Just over the 1 MiB body limit of spec/DECISIONS.md. */
const OVERSIZED_BODY_BYTES = 1024 * 1024 + 1024;

/** Runs every negative case of `op`. */
export async function checkNegative(ctx: ContractContext, op: IrOperation): Promise<void> {
  const good =
    ctx.goodRequests.get(op.id) ??
    fc.sample(requestArbitrary(ctx.spec, op, ctx.overrides), { numRuns: 1, seed: ctx.seed })[0];
  if (!good) return;
  const cases = negativeCases(ctx, op, good);
  await forEachLimit(cases, 6, async (c) => {
    const response = await send(ctx.target.baseUrl, c.request);
    const context = `${c.label}: ${describeRequest(c.request)}`;
    if (c.closeRefuses && response.closedByPeer) {
      ctx.report.record('negative_data_rejection', op.id);
      return;
    }
    const replay = curlCommand(ctx.target.baseUrl, c.request);
    checkResponse(ctx.spec, ctx.report, op, response, context, {}, replay);
    const problem = rejectionProblem(c, response);
    ctx.report.record('negative_data_rejection', op.id, problem && `${context} → ${problem}`, replay);
  });
}

/** Why `response` is not the rejection `c` expects, or undefined. */
function rejectionProblem(c: NegativeCase, response: WireResponse): string | undefined {
  const body = response.json as { code?: unknown; data?: unknown } | undefined;
  const got = describeAnswer(response);
  if (response.status !== c.status || body?.code !== c.code) return `expected ${c.status} ${c.code}, got ${got}`;
  const blame = c.blame;
  if (!blame) return undefined;
  const issues = Array.isArray(body.data) ? (body.data as { in?: unknown; pointer?: unknown }[]) : [];
  const named = issues.some(
    (i) => i.in === blame.in && typeof i.pointer === 'string' && pointsAt(blame.mutant, i.pointer),
  );
  return named ? undefined : `data does not name ${blame.in} ${blame.mutant.pointer}: ${got}`;
}

function negativeCases(ctx: ContractContext, op: IrOperation, good: RequestParts): NegativeCase[] {
  const write = { apiKey: ctx.target.keys.write };
  const wire = (parts: RequestParts) => toWire(op, parts, write);
  const cases: NegativeCase[] = [];
  const refused =
    (status: number, code: string) => (label: string, parts: RequestParts, blame: NonNullable<NegativeCase['blame']>) =>
      cases.push({ label, request: wire(parts), status, code, blame });
  const invalid = refused(400, 'invalid_request');
  // A path whose id breaks its form names no resource.
  const namesNothing = refused(404, 'not_found');
  for (const p of op.parameters.path)
    for (const m of parameterMutations(ctx, p))
      namesNothing(
        `path ${p.name} ${m.kind}`,
        { ...good, path: { ...good.path, [p.name]: m.value } },
        {
          in: 'path',
          mutant: { pointer: `/${p.name}` },
        },
      );
  for (const p of op.parameters.query)
    for (const m of parameterMutations(ctx, p))
      invalid(
        `query ${p.name} ${m.kind}`,
        { ...good, query: { ...good.query, [p.name]: m.value } },
        {
          in: 'query',
          mutant: { pointer: `/${p.name}` },
        },
      );
  invalid(
    'query extra_member',
    { ...good, query: { ...good.query, [EXTRA_MEMBER]: '1' } },
    {
      in: 'query',
      mutant: { pointer: `/${EXTRA_MEMBER}` },
    },
  );
  for (const p of op.parameters.header)
    for (const m of parameterMutations(ctx, p))
      invalid(
        `header ${p.name} ${m.kind}`,
        { ...good, headers: { ...good.headers, [p.name]: m.value } },
        {
          in: 'header',
          mutant: { pointer: `/${p.name.toLowerCase()}` },
        },
      );
  const schema = op.requestBody?.schema;
  if (schema) {
    for (const mutant of bodyMutants(ctx, op, schema, good))
      invalid(`body ${mutant.kind} ${mutant.pointer}`, { ...good, body: mutant.value }, { in: 'body', mutant });
    const base = wire(good);
    cases.push({
      label: 'malformed JSON',
      request: { ...base, body: '{"name": ' },
      status: 400,
      code: 'malformed_json',
    });
    cases.push({
      label: 'body over 1 MiB',
      request: { ...base, body: JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BODY_BYTES) }) },
      status: 413,
      code: 'payload_too_large',
      closeRefuses: true,
    });
  }
  return cases;
}

/**
 * Values of a parameter that break its schema (checked against the schema as the server coerces them). Parameters
 * of the `ServiceVersion` schema have their own error code and their own check (`checkHeaders` in `protocol.ts`).
 */
function parameterMutations(ctx: ContractContext, p: IrParameter): { kind: string; value: string }[] {
  if (refName(p.schema) === SERVICE_VERSION_SCHEMA) return [];
  const schema = resolved(ctx, p.schema);
  const check = ctx.spec.check(p.schema);
  const candidates =
    schema.type === 'integer' || schema.type === 'number'
      ? [
          { kind: 'wrong_type', value: 'not-a-number' },
          ...(typeof schema.minimum === 'number' ? [{ kind: 'out_of_range', value: String(schema.minimum - 1) }] : []),
          ...(typeof schema.maximum === 'number' ? [{ kind: 'out_of_range', value: String(schema.maximum + 1) }] : []),
        ]
      : stringMutations(schema);
  return candidates.filter(
    (c) => !check(schema.type === 'integer' ? Number(c.value) : c.value) || c.kind === 'wrong_type',
  );
}

/** Mutants of the good body and of a few generated ones, one per kind and pointer. */
function bodyMutants(ctx: ContractContext, op: IrOperation, schema: JsonSchema, good: RequestParts): Mutant[] {
  const samples = fc
    .sample(requestArbitrary(ctx.spec, op, ctx.overrides), { numRuns: EXTRA_BODY_SAMPLES, seed: ctx.seed + 1 })
    .map((s) => s.body);
  const seen = new Set<string>();
  return [good.body, ...samples]
    .flatMap((body) => mutate(schema, body, ctx.spec.walkOptions))
    .filter((m) => {
      const key = `${m.kind} ${m.pointer}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function resolved(ctx: ContractContext, schema: JsonSchema): JsonSchema {
  const seen = new Set<string>();
  let current = schema;
  for (let name = refName(current); name !== undefined && !seen.has(name); name = refName(current)) {
    seen.add(name);
    current = ctx.spec.schema(name);
  }
  return current;
}
