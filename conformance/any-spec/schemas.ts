/** Schema look-ups of any spec for the checks: component resolution and a cached ajv validity check. */
import type { ErrorObject } from 'ajv';
import type { Ir, JsonSchema } from '../../generator/ir/model.js';
import { createAjv, toAjvSchema } from '../../generator/schema/ajv.js';
import { type Components, componentsOf } from '../../generator/schema/operations.js';

/** A compiled check: the first problem of `value`, or undefined when it is valid. */
export type Problem = (value: unknown) => string | undefined;

/** Component resolution and validation of any schema of `ir`. */
export interface SpecSchemas {
  readonly components: Components;
  /** The component schema `name` (an empty schema when there is none). */
  resolve(name: string): JsonSchema;
  isValid(schema: JsonSchema, value: unknown): boolean;
  /** The first problem of `value` against `schema` (`/pointer: message`), or undefined. */
  problem(schema: JsonSchema, value: unknown): string | undefined;
}

/** Builds the look-ups of `ir`; every schema is compiled once, on first use. */
export function specSchemas(ir: Ir): SpecSchemas {
  const components = componentsOf(ir);
  const ajv = createAjv(ir, { standalone: false, allErrors: false });
  const compiled = new WeakMap<JsonSchema, ReturnType<typeof ajv.compile>>();
  const validate = (schema: JsonSchema) => {
    let check = compiled.get(schema);
    if (check === undefined) {
      check = ajv.compile(toAjvSchema(schema) as object);
      compiled.set(schema, check);
    }
    return check;
  };
  return {
    components,
    resolve: (name) => components.get(name) ?? {},
    isValid: (schema, value) => validate(schema)(value) === true,
    problem: (schema, value) => {
      const check = validate(schema);
      return check(value) ? undefined : describeError(check.errors?.[0]);
    },
  };
}

function describeError(error: ErrorObject | undefined): string {
  if (error === undefined) return 'does not match its schema';
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;
}
