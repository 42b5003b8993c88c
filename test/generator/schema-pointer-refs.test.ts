/**
 * A `$ref` that points into a component schema (`#/components/schemas/Item/properties/id`, `…/Item/$defs/Local`), as
 * real documents reuse one property of another schema, compiles and validates as what it points at.
 */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';

const document = {
  openapi: '3.1.0',
  info: { title: 'Pointer references', version: '1' },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'id', in: 'query', schema: { $ref: '#/components/schemas/Item/properties/id' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item/$defs/Local' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Item: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[a-z]+$' }, 'a/b': { type: 'integer' } },
        $defs: { Local: { type: 'integer', minimum: 1 } },
      },
      Thing: {
        type: 'object',
        properties: {
          id: { $ref: '#/components/schemas/Item/properties/id' },
          n: { $ref: '#/components/schemas/Item/$defs/Local' },
          slash: { $ref: '#/components/schemas/Item/properties/a~1b' },
        },
      },
    },
  },
};

describe('references into a component schema', () => {
  it('compile and validate as the schema they point at', async () => {
    const { asyncapi } = await loadSpecs(undefined, undefined);
    const ir = buildIr({ openapi: parseSourceDocument('/virtual/openapi.json', JSON.stringify(document)), asyncapi });
    const ajv = createAjv(ir, { standalone: true });
    const thing = ajv.getSchema(schemaId('Thing'));
    expect(thing?.({ id: 'abc', n: 2, slash: 3 })).toBe(true);
    expect(thing?.({ id: 'ABC' })).toBe(false);
    expect(thing?.({ n: 0 })).toBe(false);
    expect(thing?.({ slash: 'x' })).toBe(false);
  });
});
