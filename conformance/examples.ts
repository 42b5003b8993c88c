/**
 * The spec's own example requests of an operation, with the fixtures' ids in place of the example ids. They are
 * sent before any generated request (`positive.ts`), so that a conforming server gives every operation a 2xx — the
 * good request the mutations, the header and credential probes and the auth matrix start from — at any `--runs`,
 * not only when a generated request happens to fit.
 *
 * - Body: each example of the request body (`examples`, `example`, else the body schema's own `examples`), with
 *   every string the schema types as an id component (one some fixture id matches) replaced by a fixture id of the
 *   same kind; an example the body schema refuses after that is left out.
 * - Path parameters: the fixture ids their schema accepts, most specific first (else the parameter's example).
 * - Required query and header parameters: the parameter's example, else its schema's first `enum` value, `const`,
 *   `default` or example, else one generated value. Optional parameters are left out.
 */
import fc from 'fast-check';
import type { IrOperation, IrParameter, JsonSchema } from '../generator/ir/model.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import { examplesOf, resolveRef } from './openapi-document.js';
import type { RequestParts } from './requests.js';
import { type ConformanceSpec, refName } from './spec.js';

/** Most example requests per operation (path candidates and body examples are paired, not multiplied). */
export const MAX_EXAMPLE_REQUESTS = 4;

/** The example requests of `op` (none when it takes a body and no example of it is valid). */
export function exampleRequests(
  spec: ConformanceSpec,
  op: IrOperation,
  knownIds: readonly string[],
  seed: number,
): RequestParts[] {
  const ids = new KnownIds(spec, knownIds);
  const raw = rawOperation(spec, op);
  const bodies = op.requestBody ? exampleBodies(spec, op, raw, ids) : [undefined];
  if (bodies.length === 0) return [];
  const pathChoices = op.parameters.path.map((p) => pathValues(spec, p, raw, ids, seed));
  const count = Math.min(MAX_EXAMPLE_REQUESTS, Math.max(bodies.length, ...pathChoices.map((c) => c.length)));
  const required = (list: readonly IrParameter[]) =>
    Object.fromEntries(list.filter((p) => p.required).map((p) => [p.name, parameterValue(spec, p, raw, seed)]));
  const query = required(op.parameters.query);
  const headers = required(op.parameters.header);
  return Array.from({ length: count }, (_, i) => {
    const path = Object.fromEntries(op.parameters.path.map((p, n) => [p.name, pick(pathChoices[n] ?? [], i)]));
    const parts: RequestParts = { path, query, headers };
    return op.requestBody ? { ...parts, body: pick(bodies, i) } : parts;
  });
}

function pick<T>(items: readonly T[], index: number): T {
  return items[index % items.length] as T;
}

/** The fixtures' ids by the id components they match (`ConversationId`, `ProcedureId`, …). */
class KnownIds {
  readonly #spec: ConformanceSpec;
  readonly #ids: readonly string[];
  constructor(spec: ConformanceSpec, ids: readonly string[]) {
    this.#spec = spec;
    this.#ids = ids;
  }

  /** The id components `value` matches. */
  kinds(value: string): string[] {
    return this.#spec.idSchemas.filter((s) => this.#spec.validator(s.name)?.(value) === true).map((s) => s.name);
  }

  /** Whether some known id matches the id component `name`. */
  covers(name: string): boolean {
    return (
      this.#spec.idSchemas.some((s) => s.name === name) &&
      this.matching((id) => this.kinds(id).includes(name))[0] !== undefined
    );
  }

  /** The known ids `accepts` takes, most specific (matched by the fewest id components) first. */
  matching(accepts: (id: string) => boolean): string[] {
    return this.#ids
      .filter(accepts)
      .map((id, order) => ({ id, order, breadth: this.kinds(id).length }))
      .sort((a, b) => a.breadth - b.breadth || a.order - b.order)
      .map((c) => c.id);
  }

  /** A known id of the component `name` in place of `example`: one of the same kinds if there is one. */
  replacing(name: string, example: string): string | undefined {
    const wanted = this.kinds(example).sort().join();
    const candidates = this.matching((id) => this.kinds(id).includes(name));
    return candidates.find((id) => this.kinds(id).sort().join() === wanted) ?? candidates[0];
  }
}

/** The OpenAPI operation object of `op` (references resolved at its top). */
function rawOperation(spec: ConformanceSpec, op: IrOperation): Record<string, unknown> {
  const paths = (spec.ir.openapi.paths ?? {}) as Record<string, Record<string, unknown>>;
  return (resolveRef(spec.ir.openapi, paths[op.path]?.[op.method]) ?? {}) as Record<string, unknown>;
}

/** The valid example bodies of `op`, ids replaced by known ones. */
function exampleBodies(spec: ConformanceSpec, op: IrOperation, raw: Record<string, unknown>, ids: KnownIds): unknown[] {
  const body = op.requestBody;
  if (!body) return [];
  const content = (resolveRef(spec.ir.openapi, raw.requestBody) as { content?: Record<string, unknown> } | undefined)
    ?.content;
  let examples = examplesOf(spec.ir.openapi, content?.[body.contentType]);
  if (examples.length === 0) {
    const schema = resolvedSchema(spec, body.schema);
    examples = Array.isArray(schema.examples) ? [...schema.examples] : 'example' in schema ? [schema.example] : [];
  }
  const valid = spec.check(body.schema);
  return examples.map((e) => withKnownIds(spec, body.schema, e, ids, 0)).filter((e) => valid(e));
}

/** `value` (valid against `schema`) with every string the schema types as a covered id component replaced. */
function withKnownIds(
  spec: ConformanceSpec,
  schema: JsonSchema,
  value: unknown,
  ids: KnownIds,
  depth: number,
): unknown {
  if (depth > 48) return value;
  const name = refName(schema);
  if (name !== undefined) {
    if (typeof value === 'string' && ids.covers(name)) return ids.replacing(name, value) ?? value;
    return withKnownIds(spec, spec.schema(name), value, ids, depth + 1);
  }
  let current = value;
  for (const part of (Array.isArray(schema.allOf) ? schema.allOf : []) as JsonSchema[])
    current = withKnownIds(spec, part, current, ids, depth + 1);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const branch = branches.find((b) => spec.check(b)(current));
    return branch ? withKnownIds(spec, branch, current, ids, depth + 1) : current;
  }
  if (Array.isArray(current)) {
    const prefix = (Array.isArray(schema.prefixItems) ? schema.prefixItems : []) as JsonSchema[];
    const items = schema.items && typeof schema.items === 'object' ? (schema.items as JsonSchema) : undefined;
    return current.map((item, i) => {
      const sub = prefix[i] ?? items;
      return sub ? withKnownIds(spec, sub, item, ids, depth + 1) : item;
    });
  }
  if (current !== null && typeof current === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const extra =
      schema.additionalProperties && typeof schema.additionalProperties === 'object'
        ? (schema.additionalProperties as JsonSchema)
        : undefined;
    return Object.fromEntries(
      Object.entries(current as Record<string, unknown>).map(([key, member]) => {
        const sub = properties[key] ?? extra;
        return [key, sub ? withKnownIds(spec, sub, member, ids, depth + 1) : member];
      }),
    );
  }
  return current;
}

/** `schema` with its top-level `$ref`s followed. */
function resolvedSchema(spec: ConformanceSpec, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let name = refName(current), hops = 0; name !== undefined && hops < 16; name = refName(current), hops++)
    current = spec.schema(name);
  return current;
}

/** The OpenAPI parameter object of `p` (operation-level first, then path-level). */
function rawParameter(spec: ConformanceSpec, op: Record<string, unknown>, p: IrParameter): unknown {
  const list = (Array.isArray(op.parameters) ? op.parameters : []).map((x) => resolveRef(spec.ir.openapi, x)) as {
    name?: unknown;
    in?: unknown;
  }[];
  return list.find((x) => x.name === p.name && x.in === p.in);
}

/** Whether `value` (as sent: a string) is valid for `p`. */
function validFor(spec: ConformanceSpec, p: IrParameter, value: string): boolean {
  const type = resolvedSchema(spec, p.schema).type;
  return spec.check(p.schema)(type === 'integer' || type === 'number' ? Number(value) : value);
}

/** Candidate values of a path parameter: known ids its schema accepts (at most a few), else its example. */
function pathValues(
  spec: ConformanceSpec,
  p: IrParameter,
  raw: Record<string, unknown>,
  ids: KnownIds,
  seed: number,
): string[] {
  const known = ids.matching((id) => validFor(spec, p, id)).slice(0, MAX_EXAMPLE_REQUESTS);
  return known.length > 0 ? known : [parameterValue(spec, p, raw, seed)];
}

/** One value of a parameter: its example, its schema's first listed value, default or example, else a generated one. */
function parameterValue(spec: ConformanceSpec, p: IrParameter, raw: Record<string, unknown>, seed: number): string {
  const schema = resolvedSchema(spec, p.schema);
  const candidates = [
    ...examplesOf(spec.ir.openapi, rawParameter(spec, raw, p)),
    ...(Array.isArray(schema.enum) ? schema.enum.slice(0, 1) : []),
    ...('const' in schema ? [schema.const] : []),
    ...('default' in schema ? [schema.default] : []),
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...('example' in schema ? [schema.example] : []),
  ];
  const listed = candidates.map((c) => String(c)).find((c) => validFor(spec, p, c));
  if (listed !== undefined) return listed;
  const arbitrary = arbitraryFromSchema(p.schema, { resolve: (name) => spec.schema(name), text: 'ascii' });
  return String(fc.sample(arbitrary, { numRuns: 1, seed })[0]);
}
