/** Pieces of random API documents for the property tests. */
import fc from 'fast-check';

/** Names as people write them: kebab, snake, dotted, spaced, with a leading digit. */
export const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,10}$/).filter((n) => n.trim() === n);
export const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/);

/**
 * A schema over the component names `refs`, written in the dialect of OpenAPI `version` (3.0's `nullable`, 3.1's
 * type lists). A `$ref` stands as a member of an object, so a component may name itself through one (a tree), as
 * types can: a schema that is its own union member directly has no TypeScript type.
 */
export function schema(refs: readonly string[], version: string): fc.Arbitrary<object> {
  const nullable = version.startsWith('3.0.') ? { type: 'string', nullable: true } : { type: ['string', 'null'] };
  const ref = fc.constantFrom(...refs).map((r) => ({ $ref: `#/components/schemas/${r}` }));
  const { node } = fc.letrec<{ node: object }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'schema' },
      fc.constantFrom(
        { type: 'string' },
        { type: 'string', format: 'date-time' },
        { type: 'string', format: 'uuid' },
        { type: 'integer', format: 'int64' },
        { type: 'number', format: 'double', minimum: 0 },
        { type: 'boolean' },
        nullable,
        { type: 'string', enum: ['a', 'b-c', 'D'] },
        {},
      ),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
      fc
        .dictionary(name, refs.length > 0 ? fc.oneof(tie('node'), ref) : tie('node'), { maxKeys: 3 })
        .chain((properties) =>
          fc.record({
            type: fc.constant('object'),
            properties: fc.constant(properties),
            required: fc.subarray(Object.keys(properties)),
            additionalProperties: fc.boolean(),
          }),
        ),
      fc.record({ oneOf: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
    ),
  }));
  return node;
}
