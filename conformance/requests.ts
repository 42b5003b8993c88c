/**
 * Valid requests of any operation, generated from the IR: path, query and header parameters and the body, each
 * from its schema. Ids of existing resources (the fixtures) stand in for id schemas most of the time, so generated
 * requests reach real resources and 2xx answers; the rest are generated ids (unknown: 404).
 */
import fc from 'fast-check';
import type { IrOperation, IrParameter } from '../generator/ir/model.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import type { ConformanceSpec } from './spec.js';
import { expandPath, type WireRequest } from './wire.js';

/** One generated request, before credentials: each part as values. */
export interface RequestParts {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body (absent when the operation takes none). */
  readonly body?: unknown;
}

/**
 * Arbitraries of every id-like component (a string with a `pattern`) that some known id matches. An id weighs more
 * where the component is among the most specific it matches (`proc_…` for `ProcedureId`, whose loose pattern every
 * id matches), so each kind of id mostly lands where it belongs.
 */
export function idOverrides(spec: ConformanceSpec, knownIds: readonly string[]): Record<string, fc.Arbitrary<unknown>> {
  const resolve = (name: string) => spec.schema(name);
  const matches = new Map(
    spec.idSchemas.map(({ name }) => [name, new Set(knownIds.filter((id) => spec.validator(name)?.(id) === true))]),
  );
  const strictSubset = (a: Set<string>, b: Set<string>) => a.size < b.size && [...a].every((x) => b.has(x));
  const mostSpecific = (id: string, name: string) => {
    const own = matches.get(name) ?? new Set<string>();
    return ![...matches.values()].some((other) => other.has(id) && strictSubset(other, own));
  };
  const overrides: Record<string, fc.Arbitrary<unknown>> = {};
  for (const { name, schema } of spec.idSchemas) {
    const matching = [...(matches.get(name) ?? [])];
    if (matching.length === 0) continue;
    const known = fc.oneof(
      ...matching.map((id) => ({ arbitrary: fc.constant(id), weight: mostSpecific(id, name) ? 8 : 1 })),
    );
    overrides[name] = fc.oneof(
      { arbitrary: known, weight: 4 },
      { arbitrary: arbitraryFromSchema(schema, { resolve, text: 'ascii' }), weight: 1 },
    );
  }
  return overrides;
}

/** An arbitrary of valid requests of `op`; `overrides` (from `idOverrides`) put known ids in place of id schemas. */
export function requestArbitrary(
  spec: ConformanceSpec,
  op: IrOperation,
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>> = {},
): fc.Arbitrary<RequestParts> {
  const resolve = (name: string) => spec.schema(name);
  // Each optional parameter is left out half the time (fc.record keeps most), so that one that rarely fits (an
  // opaque `cursor` never returned by the service) does not spoil most requests.
  const parameters = (list: readonly IrParameter[]) =>
    fc
      .record(
        Object.fromEntries(
          list.map((p) => {
            const value = arbitraryFromSchema(p.schema, { resolve, overrides, text: 'ascii' }).map(String);
            const required = p.required || p.in === 'path';
            return [p.name, required ? value : fc.option(value, { nil: undefined, freq: 2 })];
          }),
        ),
      )
      .map((values) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))) as fc.Arbitrary<
      Record<string, string>
    >;
  const body = op.requestBody
    ? arbitraryFromSchema(op.requestBody.schema, { resolve, overrides })
    : fc.constant(undefined);
  return fc
    .record({
      path: parameters(op.parameters.path),
      query: parameters(op.parameters.query),
      headers: parameters(op.parameters.header),
      body,
    })
    .map(({ body: value, ...parts }) => (op.requestBody ? { ...parts, body: value } : parts));
}

/** How `toWire` authenticates: an API key (Bearer), a conversation token (`?token=`), a raw header, or nothing. */
export type Credential =
  | { readonly apiKey: string }
  | { readonly token: string }
  | { readonly authorization: string }
  | undefined;

/** The wire form of `parts` for `op`: path expanded, credentials and `Content-Type` added, body serialised. */
export function toWire(op: IrOperation, parts: RequestParts, credential: Credential): WireRequest {
  const headers: Record<string, string> = { ...parts.headers };
  const query: Record<string, string> = { ...parts.query };
  if (credential && 'apiKey' in credential) headers.Authorization = `Bearer ${credential.apiKey}`;
  if (credential && 'authorization' in credential) headers.Authorization = credential.authorization;
  if (credential && 'token' in credential) query.token = credential.token;
  if ('body' in parts) headers['Content-Type'] = 'application/json';
  return {
    method: op.method.toUpperCase(),
    path: expandPath(op.path, parts.path),
    query,
    headers,
    ...('body' in parts ? { body: JSON.stringify(parts.body) } : {}),
    ...(op.transport === 'websocket' ? { websocket: true } : {}),
  };
}

/** A short description of a request for failure messages. */
export function describeRequest(request: WireRequest): string {
  const query = new URLSearchParams(request.query).toString();
  const body = request.body === undefined ? '' : ` ${request.body.slice(0, 400)}`;
  return `${request.method} ${request.path}${query ? `?${query}` : ''}${body}`;
}
