/**
 * OpenAPI discriminators as real documents write them compile and validate: on an `allOf` base, over members tagged
 * by their schema names, beside `anyOf`. Where ajv's discriminator applies (a `oneOf` of `const` tags) it is kept;
 * where the members are references that do not fix their tags, a value is judged by the member its tag names.
 */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';
import { sampleOf } from '../../generator/schema/sample.js';

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
    // Either's members are tagged by their names (its discriminator has no mapping), as OpenAPI reads them.
    expect(validate('Either', { petType: 'Dog', barks: true })).toBe(true);
    expect(validate('Either', { petType: 'dog', barks: true })).toBe(false);
    expect(validate('Either', { petType: 3 })).toBe(false);
  });

  it('judge a value by the member its tag names, where the members do not fix their tags', async () => {
    const overlapping = {
      ...document,
      components: {
        schemas: {
          Animal: {
            oneOf: [{ $ref: '#/components/schemas/Horse' }, { $ref: '#/components/schemas/Zebra' }],
            discriminator: { propertyName: 'species', mapping: { horse: '#/components/schemas/Horse' } },
          },
          Horse: {
            type: 'object',
            required: ['species'],
            properties: { species: { type: 'string' }, age: { type: 'integer' } },
          },
          Zebra: {
            type: 'object',
            required: ['species'],
            properties: { species: { type: 'string' }, stripes: { type: 'integer' } },
          },
        },
      },
    };
    const ajv = await ajvOf(overlapping);
    const animal = ajv.getSchema(schemaId('Animal'));
    // Both members take either value as JSON Schema reads them: a plain oneOf refused both.
    expect(animal?.({ species: 'horse', age: 3 })).toBe(true);
    expect(animal?.({ species: 'Zebra', stripes: 40 })).toBe(true);
    expect(animal?.({ species: 'horse', age: 'three' })).toBe(false);
    expect(animal?.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([['/age', 'type']]);
    expect(animal?.({ species: 'donkey' })).toBe(false);
    expect(animal?.errors?.[0]).toMatchObject({ keyword: 'discriminator', params: { tagValue: 'donkey' } });
    const resolve = (name: string) => overlapping.components.schemas[name as 'Horse'];
    expect(sampleOf(overlapping.components.schemas.Animal, resolve)).toMatchObject({ species: 'horse' });
  });

  it('keeps ajv`s discriminator where every oneOf member fixes the tag', async () => {
    const ajv = await ajvOf(document);
    const tagged = ajv.getSchema(schemaId('Tagged'));
    expect(tagged?.({ state: 'on', level: 2 })).toBe(true);
    expect(tagged?.({ state: 'dim' })).toBe(false);
    expect(tagged?.errors?.[0]).toMatchObject({ keyword: 'discriminator', params: { tag: 'state', tagValue: 'dim' } });
  });
});
