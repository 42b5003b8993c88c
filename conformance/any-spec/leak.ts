/**
 * `--auth2`: no leak across identities. For each create/read pair of the spec (a `link` from a POST's success to a
 * GET, else a POST on a collection and the GET of its item, the id taken from the answer's `id`), what the first
 * identity creates, and can read itself, must not be readable with the second.
 */
import type { Ir, IrOperation } from '../../generator/ir/model.js';
import { curlCommand } from '../curl.js';
import type { Report } from '../report.js';
import { describeRequest } from '../requests.js';
import { describeAnswer, type WireRequest, type WireResponse } from '../wire.js';
import { itemOperation } from './crud-shape.js';
import { type LinkSource, linkedRequest, linksOf, type OperationLink } from './links.js';
import type { AnyRequest } from './requests.js';

/** A create operation and how its answer names the item to read. */
export interface CreateReadPair {
  readonly create: IrOperation;
  readonly read: OperationLink;
}

/** The create/read pairs of `ir`: links from a POST to a GET first, else the collection/item convention. */
export function createReadPairs(ir: Ir, ops: readonly IrOperation[]): CreateReadPair[] {
  const pairs: CreateReadPair[] = [];
  for (const create of ops.filter((op) => op.method === 'post')) {
    const linked = linksOf(ir, create).find((link) => link.target.method === 'get');
    if (linked !== undefined) {
      pairs.push({ create, read: linked });
      continue;
    }
    const item = itemOperation(ops, create, 'get');
    if (item === undefined) continue;
    const parameters = { [item.param]: '$response.body#/id' };
    pairs.push({ create, read: { name: 'item of the collection', status: '2XX', target: item.op, parameters } });
  }
  return pairs;
}

/** How the check reaches the server: a request of an operation sent as one identity or the other. */
export interface LeakRunner {
  readonly baseUrl: string;
  readonly example: (op: IrOperation) => AnyRequest | undefined;
  readonly exchange: (
    op: IrOperation,
    request: AnyRequest,
    identity: 1 | 2,
  ) => Promise<{ response: WireResponse; wire: WireRequest }>;
}

const success = (response: WireResponse) => response.status >= 200 && response.status < 300;

/** Runs the leak check on every pair; a pair the first identity cannot create and read back is not judged. */
export async function checkLeaks(pairs: readonly CreateReadPair[], runner: LeakRunner, report: Report): Promise<void> {
  for (const { create, read } of pairs) {
    const request = runner.example(create);
    const base = runner.example(read.target);
    if (request === undefined || base === undefined) continue;
    const made = await runner.exchange(create, request, 1);
    if (!success(made.response)) continue;
    const source: LinkSource = { request, response: made.response };
    const next = linkedRequest(read, base, source);
    if (next === undefined) continue;
    const own = await runner.exchange(read.target, next, 1);
    if (!success(own.response)) continue;
    const other = await runner.exchange(read.target, next, 2);
    const leaked = success(other.response)
      ? `the second identity read what the first created (${create.id}): ${describeRequest(other.wire)} → ${describeAnswer(other.response)}`
      : undefined;
    report.record('identity_leak', read.target.id, leaked, leaked && curlCommand(runner.baseUrl, other.wire));
  }
}
