/** `triesAlternatives`: which schemas get a check that stops at the first problem besides their allErrors function. */
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../generator/ir/model.js';
import { triesAlternatives } from '../../generator/schema/alternatives.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const components = new Map<string, JsonSchema>([
  ['Name', { type: 'string' }],
  [
    'Tool',
    {
      anyOf: [
        { type: 'object', properties: { ns: { const: 'a' } } },
        { type: 'object', properties: { ns: { const: 'b' } } },
      ],
    },
  ],
  ['Holder', { type: 'object', properties: { tool: ref('Tool') } }],
  ['Loop', { type: 'object', properties: { next: ref('Loop'), name: ref('Name') } }],
]);

describe('triesAlternatives', () => {
  it.each<[string, JsonSchema]>([
    ['a plain object', { type: 'object', properties: { name: ref('Name') } }],
    ['a nullable anyOf', { anyOf: [ref('Name'), { type: 'null' }] }],
    ['a discriminated oneOf', { oneOf: [ref('Name'), ref('Name')], discriminator: { propertyName: 'type' } }],
    ['a recursive reference', ref('Loop')],
    ['members named like keywords', { type: 'object', properties: { not: ref('Name'), anyOf: ref('Name') } }],
    ['keyword-like data', { const: { anyOf: [1, 2] }, 'x-note': { not: {} } }],
    // ajv evaluates the subschemas of `if` and `not` for a verdict alone, `allErrors` or not.
    ['not', { not: { type: 'null' } }],
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test, not a thenable.
    ['if with a plain then', { if: { type: 'string' }, then: { minLength: 1 } }],
    ['an anyOf inside if or not', { if: ref('Tool'), not: ref('Holder') }],
  ])('is false for %s', (_, schema) => {
    expect(triesAlternatives(schema, components)).toBe(false);
  });

  it.each<[string, JsonSchema]>([
    ['an anyOf of objects', components.get('Tool') as JsonSchema],
    ['an anyOf reached through references', { type: 'array', items: ref('Holder') }],
    ['a oneOf without discriminator', { oneOf: [ref('Name'), { type: 'integer' }] }],
    ['a nullable anyOf of an alternative', { anyOf: [ref('Tool'), { type: 'null' }] }],
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test, not a thenable.
    ['an anyOf in then', { if: { type: 'object' }, then: ref('Holder') }],
    ['an anyOf in else', { if: { type: 'object' }, else: ref('Tool') }],
    ['contains', { type: 'array', contains: { const: 1 } }],
  ])('is true for %s', (_, schema) => {
    expect(triesAlternatives(schema, components)).toBe(true);
  });
});
