/**
 * A component that is only a `$ref` to another of its section (`ItemUsagesRequest: {$ref: …/CursorRequest}`), as
 * real documents write shared bodies and responses: the operations using it keep their types, and the package
 * compiles.
 */
import { describe, expect, it } from 'vitest';
import { restTypes } from '../../generator/emit/types/rest.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('aliases');

const cursor = { type: 'object', properties: { cursor: { type: 'string' } } };
const document = {
  openapi: '3.0.3',
  info: { title: 'Aliased components', version: '1.0.0' },
  paths: {
    '/usages': {
      post: {
        operationId: 'getUsages',
        requestBody: { $ref: '#/components/requestBodies/UsagesRequest' },
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        responses: { '200': { $ref: '#/components/responses/UsagesResponse' } },
      },
    },
  },
  components: {
    schemas: { Cursor: cursor },
    requestBodies: {
      CursorRequest: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Cursor' } } },
      },
      UsagesRequest: { $ref: '#/components/requestBodies/CursorRequest' },
    },
    parameters: {
      PageSize: { name: 'limit', in: 'query', schema: { type: 'integer' } },
      Limit: { $ref: '#/components/parameters/PageSize' },
    },
    responses: {
      Page: {
        description: 'a page',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Cursor' } } },
      },
      CursorPage: { $ref: '#/components/responses/Page' },
      UsagesResponse: { $ref: '#/components/responses/CursorPage' },
    },
  },
};

describe('components that alias other components', () => {
  it('are typed as what they name, followed to the end, in the REST types', () => {
    const types = restTypes(document);
    expect(types).toMatch(
      /UsagesRequest: \{\s*content: \{\s*"application\/json": components\["schemas"\]\["Cursor"\];/,
    );
    expect(types).toMatch(
      /UsagesResponse: \{\s*headers: \{[^}]*\};\s*content: \{\s*"application\/json": components\["schemas"\]\["Cursor"\];/,
    );
    expect(types).toMatch(/Limit: number;/);
    expect(types).not.toContain('"*/*"?: never');
  });

  it('give a package whose client and server compile with tsc --strict', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'aliases', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    expect(compileStrict(out)).toEqual([]);
  }, 120_000);
});
