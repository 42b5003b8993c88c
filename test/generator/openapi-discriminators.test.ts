/**
 * OpenAPI discriminators as real documents write them compile and validate: on an `allOf` base, over members tagged
 * by their schema names, beside `anyOf`. Where ajv's discriminator applies (a `oneOf` of `const` tags) it is kept.
 */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';

const pet = {
  type: 'object',
  required: ['petType'],
  discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat' } },
  properties: { petType: { type: 'string' }, name: { type: 'string' } },
};
const document = {
  openapi: '3.0.3',
  info: { title: 'Discriminators', version: '1' },
  paths: {},
  components: {
    schemas: {
      Pet: pet,
      Cat: { allOf: [{ $ref: '#/components/schemas/Pet' }, { properties: { purrs: { type: 'boolean' } } }] },
      Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { properties: { barks: { type: 'boolean' } } }] },
      ByName: {
        oneOf: [{ $ref: '#/components/schemas/Lizard' }, { $ref: '#/components/schemas/Snake' }],
        discriminator: { propertyName: 'kind' },
      },
      Lizard: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { type: 'string' }, legs: { type: 'integer' } },
      },
      Snake: {
        type: 'object',
        required: ['kind', 'length'],
        properties: { kind: { type: 'string' }, length: { type: 'number' } },
        additionalProperties: false,
      },
      Either: {
        anyOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'petType' },
      },
      Tagged: {
        oneOf: [{ $ref: '#/components/schemas/On' }, { $ref: '#/components/schemas/Off' }],
        discriminator: { propertyName: 'state' },
      },
      On: { type: 'object', required: ['state'], properties: { state: { const: 'on' }, level: { type: 'integer' } } },
      Off: { type: 'object', required: ['state'], properties: { state: { const: 'off' } } },
    },
  },
};

async function ajvOf(openapi: object) {
  const { asyncapi } = await loadSpecs(undefined, undefined);
  const ir = buildIr({ openapi: parseSourceDocument('/virtual/openapi.json', JSON.stringify(openapi)), asyncapi });
  return createAjv(ir, { standalone: false });
}

describe('OpenAPI discriminators ajv cannot take', () => {
  it('compile, and validate by the allOf, oneOf and anyOf beside them', async () => {
    const ajv = await ajvOf(document);
    const validate = (name: string, value: unknown) => ajv.getSchema(schemaId(name))?.(value);
    expect(validate('Cat', { petType: 'cat', purrs: true })).toBe(true);
    expect(validate('Cat', { purrs: true })).toBe(false);
    expect(validate('ByName', { kind: 'Lizard', legs: 4 })).toBe(true);
    expect(validate('ByName', { kind: 'Lizard', legs: 'four' })).toBe(false);
    expect(validate('Either', { petType: 'dog', barks: true })).toBe(true);
    expect(validate('Either', { petType: 3 })).toBe(false);
  });

  it('keeps ajv`s discriminator where every oneOf member fixes the tag', async () => {
    const ajv = await ajvOf(document);
    const tagged = ajv.getSchema(schemaId('Tagged'));
    expect(tagged?.({ state: 'on', level: 2 })).toBe(true);
    expect(tagged?.({ state: 'dim' })).toBe(false);
    expect(tagged?.errors?.[0]).toMatchObject({ keyword: 'discriminator', params: { tag: 'state', tagValue: 'dim' } });
  });
});
