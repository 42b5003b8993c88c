/**
 * Requests of any operation: the spec's examples, values generated from the schemas (fast-check, seeded), and
 * invalid variants; each put on the wire as the parameter styles and the body's media type say.
 */
import fc from 'fast-check';
import type { Ir, IrOperation, IrParameter, JsonSchema } from '../../generator/ir/model.js';
import { mediaKind } from '../../templates/shared/media.js';
import { arbitraryFromSchema } from '../arbitrary-from-schema.js';
import type { CredentialParts } from '../auth-option.js';
import { mutate } from '../mutations.js';
import { examplesOf, resolveRef } from '../openapi-document.js';
import { expandPath, type WireRequest } from '../wire.js';
import type { SpecSchemas } from './schemas.js';

/** The values of one request, before serialisation. */
export interface AnyRequest {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly cookies: Readonly<Record<string, unknown>>;
  /** The body (absent when none is sent). */
  readonly body?: unknown;
}

/** An invalid request and what makes it so. */
export interface InvalidRequest {
  readonly request: AnyRequest;
  readonly why: string;
}

/** Headers the client sets itself: a parameter of these names is not sent. */
const OWN_HEADERS = new Set(['accept', 'content-type', 'authorization', 'content-length', 'host', 'cookie']);

/** Whether the checks can put a body of `op` on the wire (JSON, a form or text); operations without one can. */
export function sendableBody(op: IrOperation): boolean {
  return op.requestBody === undefined || ['json', 'form', 'text'].includes(mediaKind(op.requestBody.contentType));
}

/** Most example requests per operation. */
const MAX_EXAMPLES = 4;

/** The example requests of `op`: each body example (or none) with the parameters' examples, else generated values. */
export function exampleRequests(ir: Ir, schemas: SpecSchemas, op: IrOperation, seed: number): AnyRequest[] {
  const raw = rawOperation(ir, op);
  const params = (list: readonly IrParameter[], all: boolean) =>
    Object.fromEntries(
      list
        .filter((p) => all || p.required)
        .map((p) => [p.name, parameterExample(ir, schemas, raw, p, seed)] as const)
        .filter(([, value]) => value !== undefined),
    );
  const parts = {
    path: params(op.parameters.path, true),
    query: params(op.parameters.query, false),
    headers: params(headerParameters(op), false),
    cookies: params(op.parameters.cookie, false),
  };
  if (!op.requestBody) return [parts];
  const bodies = bodyExamples(ir, schemas, raw, op.requestBody);
  return bodies.slice(0, MAX_EXAMPLES).map((body) => ({ ...parts, body }));
}

/** `count` valid requests of `op` generated from its schemas with `seed` (optional parameters left out at times). */
export function generatedRequests(schemas: SpecSchemas, op: IrOperation, count: number, seed: number): AnyRequest[] {
  return fc.sample(requestArbitrary(schemas, op), { numRuns: count, seed });
}

/** The valid requests of `op` as a fast-check arbitrary (which also knows how to shrink them). */
export function requestArbitrary(schemas: SpecSchemas, op: IrOperation): fc.Arbitrary<AnyRequest> {
  const options = { resolve: (name: string) => schemas.resolve(name) };
  const params = (list: readonly IrParameter[]) =>
    fc
      .record(
        Object.fromEntries(
          list.map((p) => {
            const value = arbitraryFromSchema(p.schema, { ...options, text: 'ascii', maxItems: 2 });
            return [p.name, p.required || p.in === 'path' ? value : fc.option(value, { nil: undefined })];
          }),
        ),
      )
      .map((values) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)));
  const body = op.requestBody
    ? arbitraryFromSchema(op.requestBody.schema, {
        ...options,
        text: mediaKind(op.requestBody.contentType) === 'json' ? 'unicode' : 'ascii',
      })
    : fc.constant(undefined);
  return fc
    .record({
      path: params(op.parameters.path),
      query: params(op.parameters.query),
      headers: params(headerParameters(op)),
      cookies: params(op.parameters.cookie),
      body,
    })
    .map(({ body: value, ...parts }): AnyRequest => (op.requestBody ? { ...parts, body: value } : parts));
}

/**
 * Invalid variants of a valid request: each required parameter left out, a parameter of a non-string type given
 * text, and the body's mutants (a required member missing, a wrong type, …) that its schema refuses.
 */
export function invalidRequests(schemas: SpecSchemas, op: IrOperation, good: AnyRequest): InvalidRequest[] {
  const out: InvalidRequest[] = [];
  const parts = { query: op.parameters.query, headers: headerParameters(op), cookies: op.parameters.cookie } as const;
  for (const [part, list] of Object.entries(parts) as [keyof typeof parts, readonly IrParameter[]][])
    for (const p of list) {
      if (p.required && p.name in good[part]) {
        const { [p.name]: _left, ...rest } = good[part];
        out.push({ request: { ...good, [part]: rest }, why: `required ${p.in} parameter ${p.name} left out` });
      }
      if (part !== 'cookies' && takesNoText(schemas, p))
        out.push({
          request: { ...good, [part]: { ...good[part], [p.name]: WRONG_TEXT } },
          why: `${p.in} parameter ${p.name} of the wrong type`,
        });
    }
  for (const p of op.parameters.path)
    if (takesNoText(schemas, p))
      out.push({
        request: { ...good, path: { ...good.path, [p.name]: WRONG_TEXT } },
        why: `path parameter ${p.name} of the wrong type`,
      });
  const body = op.requestBody;
  if (body && 'body' in good && mediaKind(body.contentType) === 'json')
    for (const mutant of mutate(body.schema, good.body, schemas))
      out.push({ request: { ...good, body: mutant.value }, why: `body ${mutant.kind} at ${mutant.pointer || '/'}` });
  return out;
}

/** The text sent where a number, a boolean or another non-string value belongs. */
const WRONG_TEXT = 'not-a-valid-value';

/**
 * Whether text is of the wrong type for `p` however the server decodes it: its schema is a number, an integer or
 * a boolean (arrays and objects are left alone, since one text is a valid array of one item in most styles).
 */
function takesNoText(schemas: SpecSchemas, p: IrParameter): boolean {
  const type = followed(schemas, p.schema).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => t === 'integer' || t === 'number' || t === 'boolean');
}

/** The header parameters the checks send (not those the client sets itself). */
function headerParameters(op: IrOperation): IrParameter[] {
  return op.parameters.header.filter((p) => !OWN_HEADERS.has(p.name.toLowerCase()));
}

/** `request` of `op` on the wire, with the credential's headers and query parameters. */
export function toWire(op: IrOperation, request: AnyRequest, credential: CredentialParts): WireRequest {
  const path = expandPath(op.path, Object.fromEntries(Object.entries(request.path).map(([k, v]) => [k, simple(v)])));
  const search = new URLSearchParams();
  for (const p of op.parameters.query) if (p.name in request.query) appendQuery(search, p, request.query[p.name]);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = simple(value);
  const cookies = Object.entries(request.cookies).map(
    ([name, value]) => `${name}=${encodeURIComponent(simple(value))}`,
  );
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');
  Object.assign(headers, credential.headers);
  const body = request.body === undefined && !('body' in request) ? undefined : bodyText(op, request.body);
  if (body !== undefined && op.requestBody) headers['Content-Type'] = op.requestBody.contentType;
  const query = search.toString();
  return {
    method: op.method.toUpperCase(),
    path: query === '' ? path : `${path}?${query}`,
    query: credential.query,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** A value in the `simple` style: arrays comma-joined, objects as `key,value` pairs, the rest as text. */
function simple(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .flatMap(([k, v]) => [k, String(v)])
      .join(',');
  return String(value);
}

/** A query parameter in its style: JSON content as its text; `form` (exploded by default) otherwise. */
function appendQuery(search: URLSearchParams, p: IrParameter, value: unknown): void {
  if (p.json) {
    search.append(p.name, JSON.stringify(value));
    return;
  }
  const explode = p.explode ?? (p.style === undefined || p.style === 'form');
  if (Array.isArray(value)) {
    if (explode) for (const item of value) search.append(p.name, String(item));
    else
      search.append(
        p.name,
        value.map(String).join(p.style === 'pipeDelimited' ? '|' : p.style === 'spaceDelimited' ? ' ' : ','),
      );
    return;
  }
  if (value !== null && typeof value === 'object') {
    if (explode) for (const [k, v] of Object.entries(value)) search.append(k, String(v));
    else search.append(p.name, simple(value));
    return;
  }
  search.append(p.name, String(value));
}

/** The body as sent: JSON text, a URL-encoded form of its members, or the text itself. */
function bodyText(op: IrOperation, body: unknown): string {
  const kind = op.requestBody ? mediaKind(op.requestBody.contentType) : 'json';
  if (kind === 'form' && body !== null && typeof body === 'object')
    return new URLSearchParams(
      Object.entries(body).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
    ).toString();
  if (kind === 'text' && typeof body === 'string') return body;
  return JSON.stringify(body) ?? 'null';
}

/** The OpenAPI operation object of `op`, references at its top resolved. */
function rawOperation(ir: Ir, op: IrOperation): Record<string, unknown> {
  const paths = (ir.openapi.paths ?? {}) as Record<string, Record<string, unknown>>;
  const item = (resolveRef(ir.openapi, paths[op.path]) ?? {}) as Record<string, unknown>;
  const operation = (resolveRef(ir.openapi, item[op.method]) ?? {}) as Record<string, unknown>;
  // Path-level parameters count too; the operation's come first.
  const list = (x: unknown) => (Array.isArray(x) ? x.map((p) => resolveRef(ir.openapi, p)) : []);
  return { ...operation, parameters: [...list(operation.parameters), ...list(item.parameters)] };
}

/** `schema` with its top-level component references followed. */
function followed(schemas: SpecSchemas, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref =
      typeof current.$ref === 'string' ? /#\/components\/schemas\/([^/]+)$/.exec(current.$ref)?.[1] : undefined;
    if (ref === undefined) break;
    current = schemas.resolve(decodeURIComponent(ref));
  }
  return current;
}

/** A valid value of `p`: its example, its schema's example, enum, const or default, else a generated one. */
function parameterExample(
  ir: Ir,
  schemas: SpecSchemas,
  raw: Record<string, unknown>,
  p: IrParameter,
  seed: number,
): unknown {
  const declared = (raw.parameters as { name?: unknown; in?: unknown }[]).find(
    (x) => x.name === p.name && x.in === p.in,
  );
  const schema = followed(schemas, p.schema);
  const candidates = [
    ...examplesOf(ir.openapi, declared),
    ...examplesOf(ir.openapi, schema),
    ...(Array.isArray(schema.enum) ? schema.enum.slice(0, 1) : []),
    ...('const' in schema ? [schema.const] : []),
    ...('default' in schema ? [schema.default] : []),
  ];
  const listed = candidates.find((c) => schemas.isValid(p.schema, c));
  if (listed !== undefined) return listed;
  const arbitrary = arbitraryFromSchema(p.schema, { resolve: (n) => schemas.resolve(n), text: 'ascii', maxItems: 2 });
  return fc.sample(arbitrary, { numRuns: 1, seed })[0];
}

/** The body examples of the media type, else of the body's schema; a generated value when there are none. */
function bodyExamples(
  ir: Ir,
  schemas: SpecSchemas,
  raw: Record<string, unknown>,
  body: NonNullable<IrOperation['requestBody']>,
): unknown[] {
  const content = (resolveRef(ir.openapi, raw.requestBody) as { content?: Record<string, unknown> } | undefined)
    ?.content;
  const examples = examplesOf(ir.openapi, content?.[body.contentType]);
  return examples.length > 0 ? examples : examplesOf(ir.openapi, followed(schemas, body.schema));
}
