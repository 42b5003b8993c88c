/**
 * `pagination`: for each cursor list of the IR (`x-casi-paginated`), walking the pages with a small `limit` and the
 * returned `cursor` yields no item twice, ends with `cursor: null`, and sees every item a full walk saw just before
 * and nothing a full walk just after does not see — items created meanwhile shift and repeat nothing (DECISIONS.md,
 * "Lists").
 */
import type { IrOperation } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { describeRequest, type RequestParts, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { describeAnswer, send } from './wire.js';

/** Most pages one walk follows (a bound on the loop). */
const MAX_PAGES = 2000;
/** The small page sizes walked, and the large one the walks are compared with. */
const SMALL_LIMITS = [1, 3];
const LARGE_LIMIT = 100;

/** Runs the check on every paginated operation that has a good request and a `limit` parameter. */
export async function checkPagination(ctx: ContractContext): Promise<void> {
  for (const op of ctx.spec.ir.operations.filter((o) => o.paginated !== undefined)) {
    const good = ctx.goodRequests.get(op.id);
    if (!good || !op.parameters.query.some((p) => p.name === 'limit')) continue;
    // The whole list: required query parameters only (no filters), the page size and position set per request.
    const required = op.parameters.query.filter((p) => p.required && p.name !== 'limit' && p.name !== 'cursor');
    const base: RequestParts = {
      ...good,
      query: Object.fromEntries(required.map((p) => [p.name, good.query[p.name] ?? ''])),
    };
    for (const limit of SMALL_LIMITS) {
      const before = await walk(ctx, op, base, LARGE_LIMIT);
      const paged = await walk(ctx, op, base, limit);
      const after = await walk(ctx, op, base, LARGE_LIMIT);
      ctx.report.record('pagination', op.id, problemOf(before, paged, after, limit));
    }
  }
}

interface Walk {
  readonly ids: string[];
  readonly problem?: string;
}

async function walk(ctx: ContractContext, op: IrOperation, base: RequestParts, limit: number): Promise<Walk> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = { ...base.query, limit: String(limit), ...(cursor === undefined ? {} : { cursor }) };
    const request = toWire(op, { ...base, query }, { apiKey: ctx.target.keys.write });
    const response = await send(ctx.target.baseUrl, request);
    checkResponse(ctx.spec, ctx.report, op, response, `pagination: ${describeRequest(request)}`);
    const body = response.json as Record<string, unknown> | undefined;
    const items = body?.[op.paginated ?? 'data'];
    if (response.status !== 200 || !Array.isArray(items))
      return { ids, problem: `${describeRequest(request)} → ${describeAnswer(response, 200)}` };
    if (items.length > limit) return { ids, problem: `a page of limit ${limit} has ${items.length} items` };
    ids.push(...items.map((item) => String((item as { id?: unknown }).id)));
    if (body?.cursor === null) return { ids };
    if (typeof body?.cursor !== 'string') return { ids, problem: `cursor is ${JSON.stringify(body?.cursor)}` };
    cursor = body.cursor;
  }
  return { ids, problem: `no last page after ${MAX_PAGES} pages` };
}

function problemOf(before: Walk, paged: Walk, after: Walk, limit: number): string | undefined {
  const problem = before.problem ?? paged.problem ?? after.problem;
  if (problem) return problem;
  // The fixtures made items of every list, so an empty one means nothing was checked.
  if (before.ids.length === 0) return 'the list is empty: the fixtures should have made items';
  const seen = new Set(paged.ids);
  if (seen.size !== paged.ids.length) return `limit ${limit}: an item came twice`;
  const missed = before.ids.filter((id) => !seen.has(id));
  if (missed.length > 0)
    return `limit ${limit}: ${missed.length} item(s) listed before the walk were not seen, e.g. ${missed[0]}`;
  const later = new Set(after.ids);
  const unknown = paged.ids.filter((id) => !later.has(id));
  return unknown.length > 0 ? `limit ${limit}: ${unknown[0]} was seen but is not listed after the walk` : undefined;
}
