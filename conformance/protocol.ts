/**
 * Checks of the protocol around each operation, from the IR: `missing_required_header` (each required header left
 * out → 400; a wrong `Service-Version`, as a header or a query parameter → 400 `unsupported_service_version`),
 * `ignored_auth` (no or unknown credentials → 401) and `unsupported_method` (every other method on a path → 405
 * with `Allow`).
 */
import type { IrOperation } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { type Credential, describeRequest, type RequestParts, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { refName, SERVICE_VERSION_SCHEMA } from './spec.js';
import { describeAnswer, send, type WireRequest, type WireResponse } from './wire.js';

/** Methods tried on every path besides the declared ones. */
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const;

/** Sends `request`, runs the response checks, and records `check` with the problem `expect` finds. */
async function probe(
  ctx: ContractContext,
  op: IrOperation,
  check: string,
  label: string,
  request: WireRequest,
  expect: (response: WireResponse) => string | undefined,
): Promise<void> {
  const response = await send(ctx.target.baseUrl, request);
  const context = `${label}: ${describeRequest(request)}`;
  if (check !== 'unsupported_method') checkResponse(ctx.spec, ctx.report, op, response, context);
  const problem = expect(response);
  ctx.report.record(check, op.id, problem && `${context} → ${problem}`);
}

/** A problem unless `response` has `status` and an `Error` body with `code`. */
export function expectError(spec: ContractContext['spec'], status: number, code: string) {
  return (response: WireResponse): string | undefined => {
    const body = response.json as { code?: unknown } | undefined;
    const valid = spec.validator('Error')?.(response.json) === true;
    if (response.status === status && body?.code === code && valid) return undefined;
    return `expected ${status} ${code}, got ${describeAnswer(response)}`;
  };
}

/** `missing_required_header`: each required header dropped, and the API version given a wrong value. */
export async function checkHeaders(ctx: ContractContext, op: IrOperation, good: RequestParts): Promise<void> {
  const credential: Credential = { apiKey: ctx.target.keys.write };
  for (const header of op.parameters.header) {
    const version = refName(header.schema) === SERVICE_VERSION_SCHEMA;
    if (header.required) {
      const { [header.name]: _, ...rest } = good.headers;
      const code = version ? 'missing_service_version' : 'invalid_request';
      const request = toWire(op, { ...good, headers: rest }, credential);
      await probe(
        ctx,
        op,
        'missing_required_header',
        `without ${header.name}`,
        request,
        expectError(ctx.spec, 400, code),
      );
    }
    if (version) {
      const request = toWire(op, { ...good, headers: { ...good.headers, [header.name]: '2019-01-01' } }, credential);
      const expect = expectError(ctx.spec, 400, 'unsupported_service_version');
      await probe(ctx, op, 'missing_required_header', `${header.name} 2019-01-01`, request, expect);
    }
  }
  // The same version rule where a query parameter may carry it (streams and sessions, for browsers).
  for (const param of op.parameters.query.filter((p) => refName(p.schema) === SERVICE_VERSION_SCHEMA)) {
    const request = toWire(op, { ...good, query: { ...good.query, [param.name]: '2019-01-01' } }, credential);
    const expect = expectError(ctx.spec, 400, 'unsupported_service_version');
    await probe(ctx, op, 'missing_required_header', `?${param.name}=2019-01-01`, request, expect);
  }
}

/** `ignored_auth`: the good request without credentials, with an unknown key, and with a non-Bearer header → 401. */
export async function checkAuthRequired(ctx: ContractContext, op: IrOperation, good: RequestParts): Promise<void> {
  if (op.security.length === 0) return;
  const variants: [string, Credential][] = [
    ['no credentials', undefined],
    ['unknown API key', { apiKey: 'conformance_unknown_key' }],
    ['Basic credentials', { authorization: 'Basic Y29uZm9ybWFuY2U6a2V5' }],
  ];
  for (const [label, credential] of variants)
    await probe(
      ctx,
      op,
      'ignored_auth',
      label,
      toWire(op, good, credential),
      expectError(ctx.spec, 401, 'unauthorized'),
    );
}

/** `unsupported_method`: every undeclared method on each path of `ops` → 405 `method_not_allowed` with `Allow`. */
export async function checkMethods(ctx: ContractContext, ops: readonly IrOperation[]): Promise<void> {
  const byPath = new Map<string, IrOperation[]>();
  for (const op of ops) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [, sharing] of byPath) {
    const first = sharing[0] as IrOperation;
    const good = ctx.goodRequests.get(first.id);
    if (!good) continue;
    const declared = new Set(sharing.map((op) => op.method.toUpperCase()));
    const base = toWire(first, good, { apiKey: ctx.target.keys.write });
    for (const method of METHODS.filter((m) => !declared.has(m))) {
      const { 'Content-Type': _, ...headers } = base.headers ?? {};
      const request: WireRequest = { method, path: base.path, headers };
      await probe(ctx, first, 'unsupported_method', `${method} on ${first.path}`, request, (response) => {
        const problem = expectError(ctx.spec, 405, 'method_not_allowed')(response);
        if (problem) return problem;
        const allow = new Set((response.headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase()));
        const missing = [...declared].filter((m) => !allow.has(m));
        const extra = [...allow].filter((m) => !declared.has(m) && m !== 'HEAD' && m !== 'OPTIONS');
        return missing.length + extra.length === 0 ? undefined : `Allow: ${response.headers.allow ?? '(none)'}`;
      });
    }
  }
}
