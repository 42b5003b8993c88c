/**
 * Sequences the spec's OpenAPI `links` describe: an operation's answer gives the parameters of the next one
 * (`$response.body#/id`, `$request.path.row`, …). Each link of a success response is followed once from the source's
 * example request: the linked request must name something that exists (no 404) and get a checked answer.
 */
import type { Ir, IrOperation } from '../../generator/ir/model.js';
import { valueAt } from '../../generator/load/index.js';
import { curlCommand } from '../curl.js';
import { resolveRef } from '../openapi-document.js';
import type { Report } from '../report.js';
import { describeRequest } from '../requests.js';
import { describeAnswer, type WireResponse } from '../wire.js';
import { checkAnswer } from './checks.js';
import type { AnyRequest } from './requests.js';
import type { SpecSchemas } from './schemas.js';

/** One link of a success response of an operation. */
export interface OperationLink {
  readonly name: string;
  readonly status: string;
  readonly target: IrOperation;
  /** Target parameter (optionally `path.`/`query.`/`header.` qualified) → runtime expression or constant. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** The links of `op`'s success responses whose target is an operation of `ir` (by `operationId`). */
export function linksOf(ir: Ir, op: IrOperation): OperationLink[] {
  const paths = (ir.openapi.paths ?? {}) as Record<string, unknown>;
  const item = resolveRef(ir.openapi, paths[op.path]) as Record<string, unknown> | undefined;
  const operation = resolveRef(ir.openapi, item?.[op.method]) as { responses?: Record<string, unknown> } | undefined;
  const links: OperationLink[] = [];
  for (const [status, raw] of Object.entries(operation?.responses ?? {})) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const response = resolveRef(ir.openapi, raw) as { links?: Record<string, unknown> } | undefined;
    for (const [name, rawLink] of Object.entries(response?.links ?? {})) {
      const link = resolveRef(ir.openapi, rawLink) as { operationId?: unknown; parameters?: unknown } | undefined;
      const target = ir.operations.find((o) => o.id === link?.operationId);
      if (target === undefined || target.transport !== 'http') continue;
      const parameters = (link?.parameters ?? {}) as Record<string, unknown>;
      links.push({ name, status, target, parameters });
    }
  }
  return links;
}

/** What a link's expressions read: the source request's values and its answer. */
export interface LinkSource {
  readonly request: AnyRequest;
  readonly response: WireResponse;
}

/** The value of a runtime expression (`$request.path.id`, `$response.body#/id`, …); a constant as it is. */
export function linkValue(expression: unknown, source: LinkSource): unknown {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  const [, part, rest = ''] =
    /^\$(request\.path|request\.query|request\.header|response\.header|response\.body)(.*)$/.exec(expression) ?? [
      undefined,
      undefined,
    ];
  switch (part) {
    case 'request.path':
      return source.request.path[rest.slice(1)];
    case 'request.query':
      return source.request.query[rest.slice(1)];
    case 'request.header':
      return source.request.headers[rest.slice(1)];
    case 'response.header':
      return source.response.headers[rest.slice(1).toLowerCase()];
    case 'response.body':
      return rest === '' ? source.response.json : valueAt(source.response.json, rest.replace(/^#/, ''));
    default:
      return undefined;
  }
}

/** `base` with the link's parameters set from `source`; undefined when one of them has no value. */
export function linkedRequest(link: OperationLink, base: AnyRequest, source: LinkSource): AnyRequest | undefined {
  const parts = { path: { ...base.path }, query: { ...base.query }, headers: { ...base.headers } };
  for (const [qualified, expression] of Object.entries(link.parameters)) {
    const [where, name] = qualified.includes('.') ? qualified.split('.', 2) : [undefined, qualified];
    const value = linkValue(expression, source);
    if (value === undefined || name === undefined) return undefined;
    const list = link.target.parameters;
    if ((where ?? 'path') === 'path' && list.path.some((p) => p.name === name)) parts.path[name] = value;
    else if ((where ?? 'query') === 'query' && list.query.some((p) => p.name === name)) parts.query[name] = value;
    else if (list.header.some((p) => p.name === name)) parts.headers[name] = value;
    else return undefined;
  }
  return { ...base, ...parts };
}

/** How the sequences reach the server: a request of an operation put on the wire and sent. */
export interface LinkRunner {
  readonly baseUrl: string;
  readonly exchange: (
    op: IrOperation,
    request: AnyRequest,
  ) => Promise<{ response: WireResponse; wire: Parameters<typeof curlCommand>[1] }>;
  /** The first example request of an operation. */
  readonly example: (op: IrOperation) => AnyRequest | undefined;
}

/**
 * Follows every link of `ops` once: the source's example request, then (when its answer has the link's status) the
 * linked request; `link_sequence` fails when the linked request names nothing (404) and records its answer's checks.
 */
export async function followLinks(
  ir: Ir,
  schemas: SpecSchemas,
  ops: readonly IrOperation[],
  runner: LinkRunner,
  report: Report,
): Promise<number> {
  let followed = 0;
  for (const op of ops) {
    const links = linksOf(ir, op);
    const request = links.length > 0 ? runner.example(op) : undefined;
    if (request === undefined) continue;
    const { response } = await runner.exchange(op, request);
    for (const link of links) {
      const matches = link.status.toUpperCase().endsWith('XX')
        ? String(response.status)[0] === link.status[0]
        : String(response.status) === link.status;
      const base = matches ? runner.example(link.target) : undefined;
      const next = base && linkedRequest(link, base, { request, response });
      if (next === undefined) continue;
      followed++;
      const answer = await runner.exchange(link.target, next);
      const shown = `${op.id} → ${link.name}: ${describeRequest(answer.wire)} → ${describeAnswer(answer.response)}`;
      const replay = curlCommand(runner.baseUrl, answer.wire);
      const gone = answer.response.status === 404 ? 'the linked request names nothing (404)' : undefined;
      report.record('link_sequence', link.target.id, gone && `${gone}: ${shown}`, gone && replay);
      for (const verdict of checkAnswer(schemas, link.target, answer.response, false))
        report.record(
          verdict.check,
          link.target.id,
          verdict.problem && `${verdict.problem}: ${shown}`,
          verdict.problem && replay,
        );
    }
  }
  return followed;
}
