/**
 * Values valid against any spec's schemas, for round trips through generated code: fast-check samples of the
 * schema, kept only when ajv (with the spec's component schemas) accepts them.
 */
import type { Ajv } from 'ajv';
import fc from 'fast-check';
import { arbitraryFromSchema } from '../../conformance/arbitrary-from-schema.js';
import type { Ir, JsonSchema } from '../../generator/ir/model.js';
import { createAjv, toAjvSchema } from '../../generator/schema/ajv.js';

/** How many samples are tried before giving up on a schema. */
const TRIES = 40;

/** Thrown when no sample of a schema is valid: the schema may accept nothing at all. */
export class NoSample extends Error {}

/** Makes values of the schemas of `ir`: `sample(schema, seed, keep)` is the first valid sample `keep` accepts. */
export function sampler(ir: Ir): (schema: JsonSchema, seed: number, keep?: (value: unknown) => boolean) => unknown {
  const ajv: Ajv = createAjv(ir, { standalone: false });
  const schemas = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const resolve = (name: string): JsonSchema => {
    const schema = schemas.get(name) ?? schemas.get(decodeURIComponent(name));
    if (schema === undefined) throw new Error(`no component schema ${name}`);
    return schema;
  };
  return (schema, seed, keep = () => true) => {
    const valid = ajv.compile(toAjvSchema(schema) as object);
    const values = fc.sample(arbitraryFromSchema(schema, { resolve, text: 'ascii', maxItems: 2 }), {
      numRuns: TRIES,
      seed,
    });
    const found = values.find((value) => valid(value) && keep(value));
    if (found === undefined) throw new NoSample(`no valid sample of ${JSON.stringify(schema).slice(0, 200)}`);
    // As it travels: JSON has no -0 nor undefined members.
    return JSON.parse(JSON.stringify(found)) as unknown;
  };
}
