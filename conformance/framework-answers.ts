/**
 * Answers made around the operations rather than by them, from the IR: `head_like_get` (HEAD on every GET operation
 * answers the status and media type GET does, without a body), `framework_error_shape` (requests a parser refuses —
 * a path with invalid percent-encoding, a malformed request line, `Content-Length` with `Transfer-Encoding`, a
 * negative `Content-Length`, headers over 16 KiB, HTTP/1.1 without `Host` — are 4xx with an `Error` body; plain
 * `http:` targets only, over a raw socket) and `__proto__` as a query parameter name refused like any unknown one.
 */
import type { IrOperation } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { exchange, portOf } from './raw-http.js';
import { describeRequest, toWire } from './requests.js';
import { describeAnswer, send, urlOf } from './wire.js';

/** Runs the three checks. */
export async function checkFrameworkAnswers(ctx: ContractContext): Promise<void> {
  const gets = ctx.spec.ir.operations.filter((op) => op.method === 'get' && op.transport !== 'websocket');
  for (const op of gets) await headLikeGet(ctx, op);
  const first = gets.find((op) => ctx.goodRequests.has(op.id));
  if (first !== undefined) {
    await protoQuery(ctx, first);
    if (new URL(ctx.target.baseUrl).protocol === 'http:') await frameworkErrors(ctx, first);
  }
}

async function headLikeGet(ctx: ContractContext, op: IrOperation): Promise<void> {
  const good = ctx.goodRequests.get(op.id);
  if (!good) return;
  const request = toWire(op, good, { apiKey: ctx.target.keys.write });
  const get = await send(ctx.target.baseUrl, request, { idleMs: 40, maxMs: 500 });
  const head = await send(ctx.target.baseUrl, { ...request, method: 'HEAD' }, { idleMs: 40, maxMs: 500 });
  const same = head.status === get.status && head.contentType === get.contentType && head.text === '';
  ctx.report.record(
    'head_like_get',
    op.id,
    same
      ? undefined
      : `HEAD ${describeRequest(request)} → ${describeAnswer(head)}; GET → ${get.status} ${get.contentType}`,
  );
}

async function protoQuery(ctx: ContractContext, op: IrOperation): Promise<void> {
  const good = ctx.goodRequests.get(op.id);
  if (!good) return;
  // `fromEntries` makes `__proto__` an own member (an object literal would set the prototype instead).
  const query = Object.fromEntries([...Object.entries(good.query), ['__proto__', '1']]);
  const request = toWire(op, { ...good, query }, { apiKey: ctx.target.keys.write });
  const response = await send(ctx.target.baseUrl, request);
  const code = (response.json as { code?: unknown } | undefined)?.code;
  ctx.report.record(
    'framework_error_shape',
    op.id,
    response.status === 400 && code === 'invalid_request'
      ? undefined
      : `?__proto__=1 ${describeRequest(request)} → expected 400 invalid_request, got ${describeAnswer(response)}`,
  );
}

async function frameworkErrors(ctx: ContractContext, op: IrOperation): Promise<void> {
  const good = ctx.goodRequests.get(op.id);
  if (!good) return;
  const request = toWire(op, good, { apiKey: ctx.target.keys.write });
  const url = urlOf(ctx.target.baseUrl, request);
  const target = `${url.pathname}${url.search}`;
  const headers = Object.entries(request.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const host = `Host: ${url.host}\r\n`;
  const named = op.parameters.path[0]?.name;
  const badPath = named === undefined ? '/%FF%FE' : `${url.pathname.replace(/\/[^/]+$/, '')}/%FF%FE`;
  const cases: [string, string][] = [
    ['invalid percent-encoding', `GET ${badPath} HTTP/1.1\r\n${host}${headers}Connection: close\r\n\r\n`],
    ['malformed request line', 'GARBAGE\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding',
      `POST ${target} HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    ['Content-Length: -1', `POST ${target} HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`],
    [
      'headers over 16 KiB',
      `GET ${target} HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(17_000)}\r\nConnection: close\r\n\r\n`,
    ],
    ['HTTP/1.1 without Host', `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`],
  ];
  for (const [label, text] of cases) {
    const answer = await exchange(portOf(ctx.target.baseUrl), text);
    const valid = ctx.spec.validator('Error')?.(answer.json) === true;
    const fine = answer.status >= 400 && answer.status < 500 && valid;
    ctx.report.record(
      'framework_error_shape',
      op.id,
      fine ? undefined : `${label} → ${answer.status || 'no answer'} ${answer.body.slice(0, 200) || '(empty body)'}`,
    );
  }
}
