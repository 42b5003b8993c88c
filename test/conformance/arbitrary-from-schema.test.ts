/** The schema arbitraries generate only valid values: every component schema, checked by its generated validator. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../../conformance/arbitrary-from-schema.js';
import { loadConformanceSpec } from '../../conformance/spec.js';

const spec = await loadConformanceSpec();
const resolve = (name: string) => spec.schema(name);

describe('arbitraryFromSchema', () => {
  it.each(spec.ir.schemas.map((s) => s.name))('%s: every generated value is valid', (name) => {
    const validate = spec.validator(name);
    if (!validate) throw new Error(`no generated validator for ${name}`);
    const arbitrary = arbitraryFromSchema({ $ref: `#/components/schemas/${name}` }, { resolve });
    fc.assert(
      fc.property(arbitrary, (value) => {
        if (!validate(value)) throw new Error(`${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    [{ type: 'string', pattern: '^ab+c$', maxLength: 5 }, (v: unknown) => /^ab{1,3}c$/.test(String(v))],
    [{ type: 'integer', minimum: 3, maximum: 5 }, (v: unknown) => Number.isInteger(v) && (v as number) >= 3],
    [{ type: ['string', 'null'], enum: ['a', null] }, (v: unknown) => v === 'a' || v === null],
    [{ type: 'string', format: 'date-time' }, (v: unknown) => !Number.isNaN(Date.parse(String(v)))],
    [{ type: 'array', items: { const: 1 }, minItems: 2, maxItems: 2 }, (v: unknown) => JSON.stringify(v) === '[1,1]'],
  ])('%j', (schema, holds) => {
    fc.assert(
      fc.property(arbitraryFromSchema(schema, { resolve }), (value) => holds(value)),
      { numRuns: 100 },
    );
  });

  it('never names a member __proto__, which the server refuses, in free-form objects and values', () => {
    const hasProto = (value: unknown): boolean =>
      value !== null &&
      typeof value === 'object' &&
      (Object.hasOwn(value, '__proto__') || Object.values(value).some(hasProto));
    for (const schema of [{ type: 'object', additionalProperties: true }, { type: 'object' }, true]) {
      const values = fc.sample(arbitraryFromSchema(schema, { resolve }), 3000);
      expect(values.some((v) => v !== null && typeof v === 'object' && Object.keys(v).length > 0)).toBe(true);
      expect(values.filter(hasProto)).toEqual([]);
    }
  });

  it('reaches a maxLength boundary', () => {
    const lengths = fc.sample(arbitraryFromSchema({ type: 'string', maxLength: 40 }, { resolve }), 400);
    expect(lengths.some((s) => (s as string).length === 40)).toBe(true);
  });

  it('uses an override wherever the component is referenced', () => {
    const arbitrary = arbitraryFromSchema(
      { type: 'object', properties: { id: { $ref: '#/components/schemas/ConversationId' } }, required: ['id'] },
      { resolve, overrides: { ConversationId: fc.constant('conv_known') } },
    );
    expect(fc.sample(arbitrary, 5)).toEqual(Array(5).fill({ id: 'conv_known' }));
  });
});
