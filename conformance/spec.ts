/** The conformance suite's view of the specs: the IR, schema look-ups, and validators of responses and events. */
import { join } from 'node:path';
import { type Validator, validators } from '../generated/src/validators.gen.js';
import { buildIr } from '../generator/ir/build.js';
import type { Ir, IrOperation, IrResponse, IrSchema, JsonSchema } from '../generator/ir/model.js';
import { loadSpecs } from '../generator/load/index.js';
import { createAjv, toAjvSchema } from '../generator/schema/ajv.js';
import { TOOLKIT_ROOT } from '../generator/toolkit-root.js';

/** Where the suite reads the specs from (the repository's `spec/`). */
export const SPEC_FILES = {
  openapi: join(TOOLKIT_ROOT, 'spec', 'openapi.yaml'),
  asyncapi: join(TOOLKIT_ROOT, 'spec', 'asyncapi.yaml'),
} as const;

/** The component schema of the API version (the `Service-Version` header and `service_version` query parameter). */
export const SERVICE_VERSION_SCHEMA = 'ServiceVersion';

/** A compiled check of any (sub)schema of the spec: true when `value` is valid. */
export type SchemaCheck = (value: unknown) => boolean;

/** The IR with the look-ups every check needs. */
export interface ConformanceSpec {
  readonly ir: Ir;
  /** The component schema `name` (throws when there is none). */
  schema(name: string): JsonSchema;
  /** The generated validator of a component schema or message, or undefined. */
  validator(name: string): Validator<unknown> | undefined;
  /** A runtime-compiled check of any schema of the spec (inline ones included); cached by identity. */
  check(schema: JsonSchema): SchemaCheck;
  /** The declared response of `op` that answers `status` (exact, then `4XX`/`5XX`, then `default`). */
  response(op: IrOperation, status: number): IrResponse | undefined;
  /** The validator of the body of a declared response (the generated one of its `$ref`), if it has a body. */
  responseValidator(response: IrResponse): Validator<unknown> | SchemaCheck | undefined;
  /** The id-like component schemas: strings with a `pattern` (`ConversationId`, `ProcedureId`, …). */
  readonly idSchemas: readonly IrSchema[];
  /** Reference resolution and validity of any schema, as schema walks (`mutations.ts`) take them. */
  readonly walkOptions: {
    readonly resolve: (name: string) => JsonSchema;
    readonly isValid: (schema: JsonSchema, value: unknown) => boolean;
  };
}

let cached: Promise<ConformanceSpec> | undefined;

/** Loads the specs once per process and builds the `ConformanceSpec`. */
export function loadConformanceSpec(): Promise<ConformanceSpec> {
  cached ??= loadSpecs(SPEC_FILES.openapi, SPEC_FILES.asyncapi).then((specs) => makeSpec(buildIr(specs)));
  return cached;
}

/** The component name a schema is a bare `$ref` to, if it is one. */
export function refName(schema: unknown): string | undefined {
  const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
  return typeof ref === 'string' ? /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

function makeSpec(ir: Ir): ConformanceSpec {
  const byName = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const named = validators as unknown as Readonly<Record<string, Validator<unknown>>>;
  let ajv: ReturnType<typeof createAjv> | undefined;
  const checks = new WeakMap<JsonSchema, SchemaCheck>();
  const spec: ConformanceSpec = {
    ir,
    schema(name) {
      const schema = byName.get(name);
      if (schema === undefined) throw new Error(`the spec has no schema ${name}`);
      return schema;
    },
    validator: (name) => named[name],
    check(schema) {
      const known = checks.get(schema);
      if (known) return known;
      const generated = spec.validator(refName(schema) ?? '');
      let made: SchemaCheck;
      if (generated) made = (value) => generated(value);
      else {
        ajv ??= createAjv(ir, { standalone: false });
        const compiled = ajv.compile(toAjvSchema(schema) as object);
        made = (value) => compiled(value) === true;
      }
      checks.set(schema, made);
      return made;
    },
    response(op, status) {
      const exact = op.responses.find((r) => r.status === String(status));
      const range = op.responses.find((r) => r.status === `${String(status)[0]}XX`);
      return exact ?? range ?? op.responses.find((r) => r.status === 'default');
    },
    idSchemas: ir.schemas.filter(({ schema }) => schema.type === 'string' && typeof schema.pattern === 'string'),
    walkOptions: {
      resolve: (name) => spec.schema(name),
      isValid: (schema, value) => spec.check(schema)(value),
    },
    responseValidator(response) {
      if (response.schema === undefined) return undefined;
      const name = refName(response.schema);
      return (name === undefined ? undefined : spec.validator(name)) ?? spec.check(response.schema);
    },
  };
  return spec;
}
