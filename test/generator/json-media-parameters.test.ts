/**
 * A JSON media type written with parameters (`application/json; charset=utf-8`, as many real documents declare their
 * answers) is read as JSON: the client method returns the schema's type and the package compiles.
 */
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('json-media');

const tree = { type: 'object', properties: { value: { type: 'string' } } };
const document = {
  openapi: '3.1.0',
  info: { title: 'JSON with parameters', version: '1.0.0' },
  paths: {
    '/trees/{id}': {
      get: {
        operationId: 'getTree',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'the tree',
            content: { 'application/json; charset=utf-8': { schema: { $ref: '#/components/schemas/Tree' } } },
          },
        },
      },
      put: {
        operationId: 'putTree',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { content: { 'application/merge-patch+json; charset=utf-8': { schema: tree } } },
        responses: { '200': { description: 'stored', content: { 'application/hal+json;v=2': { schema: tree } } } },
      },
    },
  },
  components: { schemas: { Tree: tree } },
};

describe('JSON media types with parameters', () => {
  it('type the answer as the schema, and the package compiles with tsc --strict', async () => {
    const { out, errors, diagnostics, files } = await generateAlone(work, 'json-media', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const client = files.find((f) => f.path === 'src/client.gen.ts')?.content ?? '';
    expect(client).toMatch(/getTree: \(id: [^)]*\): ApiPromise<types\.Tree>/);
    // An operation without a summary is documented by its method and path alone.
    expect(client).toContain('      /** `GET /trees/{id}`. */\n      getTree:');
    expect(compileStrict(out)).toEqual([]);
  }, 120_000);
});
