/**
 * `use_after_free`: for each DELETE operation, a resource is created through the POST of its collection, deleted,
 * and then every operation whose path takes its id (or version id) answers 404 `not_found`, a second DELETE too,
 * and no list shows it any more. Driven by the IR: a new deletable resource needs no new code.
 */
import fc from 'fast-check';
import type { IrOperation } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { expectError } from './protocol.js';
import { describeRequest, type RequestParts, requestArbitrary, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { describeAnswer, isSuccess, send } from './wire.js';

/** Generated bodies tried to create the resource before giving up. */
const CREATE_ATTEMPTS = 30;

/** Runs the check for every DELETE operation of the IR. */
export async function checkUseAfterFree(ctx: ContractContext): Promise<void> {
  for (const op of ctx.spec.ir.operations.filter((o) => o.method === 'delete')) await checkOne(ctx, op);
}

async function checkOne(ctx: ContractContext, deletion: IrOperation): Promise<void> {
  const record = (problem?: string) => ctx.report.record('use_after_free', deletion.id, problem);
  const made = await createForDeletion(ctx, deletion);
  if (!made) {
    record(`no resource for ${deletion.path} could be created through its collection's POST`);
    return;
  }
  const { parts, created, id } = made;
  const credential = { apiKey: ctx.target.keys.write };
  const deleteRequest = toWire(deletion, parts, credential);
  const first = await send(ctx.target.baseUrl, deleteRequest);
  record(isSuccess(first) ? undefined : `${describeRequest(deleteRequest)} → ${describeAnswer(first)}`);
  for (const op of ctx.spec.ir.operations) {
    if (op.transport !== 'http') continue;
    const pathParam = op.parameters.path[0];
    const value = pathParam ? created.find((v) => ctx.spec.check(pathParam.schema)(v)) : undefined;
    if (pathParam && value !== undefined && op.parameters.path.length === 1) {
      const parts = partsFor(ctx, op, { [pathParam.name]: value });
      const request = toWire(op, parts, credential);
      const response = await send(ctx.target.baseUrl, request);
      checkResponse(ctx.spec, ctx.report, op, response, `after delete: ${describeRequest(request)}`);
      const problem = expectError(ctx.spec, 404, 'not_found')(response);
      record(problem && `${describeRequest(request)} after ${deletion.id} → ${problem}`);
    } else if (op.method === 'get' && op.parameters.path.length === 0) {
      const request = toWire(op, partsFor(ctx, op, {}), credential);
      const response = await send(ctx.target.baseUrl, request);
      const listed = Object.values((response.json ?? {}) as Record<string, unknown>)
        .filter(Array.isArray)
        .flat()
        .some((item) => (item as { id?: unknown } | null)?.id === id);
      record(
        response.error !== undefined
          ? `${describeRequest(request)} → ${response.text}`
          : listed
            ? `${describeRequest(request)} still lists ${id}`
            : undefined,
      );
    }
  }
}

/**
 * Creates a resource for `deletion` through the POST of its collection; answers the DELETE request naming it, the
 * string members of the create answer (its id and version id) and the id.
 */
export async function createForDeletion(
  ctx: ContractContext,
  deletion: IrOperation,
): Promise<{ parts: RequestParts; created: string[]; id: string } | undefined> {
  const idParam = deletion.parameters.path[0];
  const created = await create(ctx, deletion);
  const id = idParam && created?.find((value) => ctx.spec.check(idParam.schema)(value));
  if (!idParam || !created || id === undefined) return undefined;
  return { parts: partsFor(ctx, deletion, { [idParam.name]: id }), created, id };
}

/** POSTs generated bodies to the collection of `deletion` until one is created; answers the string members. */
async function create(ctx: ContractContext, deletion: IrOperation): Promise<string[] | undefined> {
  const collection = deletion.path.replace(/\/\{[^}]+\}$/, '');
  const creator = ctx.spec.ir.operations.find((o) => o.method === 'post' && o.path === collection);
  if (!creator) return undefined;
  const samples = fc.sample(requestArbitrary(ctx.spec, creator, ctx.overrides), {
    numRuns: CREATE_ATTEMPTS,
    seed: ctx.seed,
  });
  for (const parts of [ctx.goodRequests.get(creator.id), ...samples]) {
    if (!parts) continue;
    const response = await send(ctx.target.baseUrl, toWire(creator, parts, { apiKey: ctx.target.keys.write }));
    if (isSuccess(response))
      return Object.values((response.json ?? {}) as Record<string, unknown>).filter((v) => typeof v === 'string');
  }
  return undefined;
}

/** The good request of `op` (or a generated one) with `path` in place of its path parameters. */
function partsFor(ctx: ContractContext, op: IrOperation, path: Record<string, string>): RequestParts {
  const base =
    ctx.goodRequests.get(op.id) ??
    fc.sample(requestArbitrary(ctx.spec, op, ctx.overrides), { numRuns: 1, seed: ctx.seed })[0];
  if (!base) throw new Error(`no request of ${op.id}`);
  return { ...base, path };
}
