/**
 * `round_trip`: what a create (POST on a collection) or an update (PUT on an item) writes, the item's GET reads back.
 * From the IR: the GET on `<collection>/{param}` (or the PUT's own path); compared are the members the request gave
 * a (non-null) value that the GET answer's member schema also accepts — so a written `ca_<id>` read back as a
 * version id, or a request-only shape, is not compared; the answer may add defaults inside objects. Generated
 * bodies, so unusual text (any code point) must survive too.
 */
import fc from 'fast-check';
import type { IrOperation, JsonSchema } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { describeRequest, type RequestParts, requestArbitrary, toWire } from './requests.js';
import { refName } from './spec.js';
import { describeAnswer, isSuccess, send } from './wire.js';

/** Writes tried per write operation. */
const WRITES = 25;

/** Runs the check for every POST-on-a-collection and PUT-on-an-item operation with a matching GET. */
export async function checkRoundTrips(ctx: ContractContext): Promise<void> {
  for (const write of ctx.spec.ir.operations.filter(
    (o) => o.requestBody && (o.method === 'post' || o.method === 'put'),
  )) {
    const read = readerOf(ctx, write);
    if (!read) continue;
    const compared = answerMembers(ctx, read);
    if (Object.keys(compared).length === 0) continue;
    const samples = fc.sample(requestArbitrary(ctx.spec, write, ctx.overrides), { numRuns: WRITES, seed: ctx.seed });
    for (const parts of samples) await roundTrip(ctx, write, read, compared, parts);
  }
}

/** The GET that reads what `write` wrote: on the same path (PUT) or on `<path>/{param}` (POST on a collection). */
function readerOf(ctx: ContractContext, write: IrOperation): IrOperation | undefined {
  const gets = ctx.spec.ir.operations.filter((o) => o.method === 'get' && o.transport === 'http');
  if (write.method === 'put') return gets.find((o) => o.path === write.path);
  if (write.parameters.path.length > 0) return undefined;
  return gets.find((o) => o.parameters.path.length === 1 && o.path === `${write.path}/{${o.parameters.path[0]?.name}}`);
}

/** The member schemas of the GET answer's body. */
function answerMembers(ctx: ContractContext, read: IrOperation): Record<string, JsonSchema> {
  const schema = read.responses.find((r) => r.status === '200')?.schema;
  const name = refName(schema);
  const resolved = name === undefined ? schema : ctx.spec.schema(name);
  return (resolved?.properties ?? {}) as Record<string, JsonSchema>;
}

async function roundTrip(
  ctx: ContractContext,
  write: IrOperation,
  read: IrOperation,
  compared: Readonly<Record<string, JsonSchema>>,
  parts: RequestParts,
): Promise<void> {
  const credential = { apiKey: ctx.target.keys.write };
  const request = toWire(write, parts, credential);
  const written = await send(ctx.target.baseUrl, request);
  if (written.error !== undefined)
    ctx.report.record('round_trip', write.id, `${describeRequest(request).slice(0, 200)} → ${written.text}`);
  if (!isSuccess(written)) return;
  const param = read.parameters.path[0];
  const id = param && writtenId(ctx, written.json, param.schema);
  if (!param || id === undefined) return;
  const readRequest = toWire(read, { path: { [param.name]: id }, query: {}, headers: parts.headers }, credential);
  const answer = await send(ctx.target.baseUrl, readRequest);
  const body = parts.body as Record<string, unknown>;
  const got = answer.json as Record<string, unknown> | undefined;
  const problems = Object.entries(compared)
    .filter(([m, schema]) => body[m] !== undefined && body[m] !== null && ctx.spec.check(schema)(body[m]))
    .map(([m]) => m)
    .filter((m) => !contains(got?.[m], body[m]))
    .map((m) => `${m}: wrote ${JSON.stringify(body[m]).slice(0, 200)}, read ${JSON.stringify(got?.[m]).slice(0, 200)}`);
  const problem =
    answer.status !== 200
      ? `${describeRequest(readRequest)} → ${describeAnswer(answer, 200)} after the write`
      : problems.length > 0
        ? `${describeRequest(request).slice(0, 200)}; ${describeRequest(readRequest)}: ${problems.join('; ')}`
        : undefined;
  ctx.report.record('round_trip', write.id, problem);
}

/**
 * The id the write answer names that the read accepts, the most specific one (matched by the fewest id schemas):
 * a version id `ca_<id>@v3` rather than `ca_<id>`, so a PUT that made a new draft is read at that draft.
 */
function writtenId(ctx: ContractContext, answer: unknown, accepts: JsonSchema): string | undefined {
  const breadth = (id: string) => ctx.spec.idSchemas.filter((s) => ctx.spec.validator(s.name)?.(id) === true).length;
  return Object.values((answer ?? {}) as Record<string, unknown>)
    .filter((v): v is string => typeof v === 'string' && ctx.spec.check(accepts)(v))
    .sort((a, b) => breadth(a) - breadth(b))[0];
}

/** Whether `actual` holds `expected`: equal scalars, same-length arrays item by item, objects member by member. */
export function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => contains(actual[i], e))
    );
  if (expected !== null && typeof expected === 'object')
    return (
      actual !== null &&
      typeof actual === 'object' &&
      Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v))
    );
  return Object.is(actual, expected) || actual === expected;
}
