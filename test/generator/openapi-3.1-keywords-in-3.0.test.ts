/**
 * `type: 'null'`, which OpenAPI 3.1 (JSON Schema) has and 3.0 does not (it writes `nullable: true`), in a 3.0
 * document: read as 3.1 reads it, the value null, with a warning at each place; any other unknown type stays an error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintOpenApiStructure } from '../../generator/check/openapi-structure.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('openapi-3.1-in-3.0');

const document = {
  openapi: '3.0.3',
  info: { title: 'Null type', version: '1' },
  paths: {
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Note: {
        type: 'object',
        required: ['text', 'metadata'],
        properties: {
          text: { type: 'string' },
          metadata: { anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'null' }] },
          cleared: { type: 'null' },
        },
      },
    },
  },
};

describe("OpenAPI 3.1's type: 'null' in a 3.0 document", () => {
  it('generates: read as the value null, one warning at each place, and the package compiles', async () => {
    const { out, diagnostics, errors } = await generateAlone(work, 'null-type', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const warnings = diagnostics.filter((d) => d.includes('(casi/openapi-3.1-keyword)'));
    expect(warnings.map((d) => d.split(' at #').at(-1))).toEqual([
      '/components/schemas/Note/properties/metadata/anyOf/2/type',
      '/components/schemas/Note/properties/cleared/type',
    ]);
    expect(warnings.every((d) => / warning type: 'null' is OpenAPI 3\.1 .*`nullable: true`/.test(d))).toBe(true);
    expect(compileStrict(out)).toEqual([]);
    const { validateNote } = (await import(join(out, 'src/validators.gen.ts'))) as {
      validateNote: (value: unknown) => boolean;
    };
    expect(validateNote({ text: 'a', metadata: null, cleared: null })).toBe(true);
    expect(validateNote({ text: 'a', metadata: { k: 1 } })).toBe(true);
    expect(validateNote({ text: 'a', metadata: 1 })).toBe(false);
    expect(validateNote({ text: 'a', metadata: null, cleared: 'x' })).toBe(false);
  });

  it("the structure check takes 'null' in 3.0 and still refuses a type no version has", async () => {
    const file = join(work, 'types.openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    expect(await lintOpenApiStructure(file)).toEqual([]);
    const broken = structuredClone(document);
    broken.components.schemas.Note.properties.cleared = { type: 'nothing' };
    writeFileSync(file, JSON.stringify(broken, null, 2));
    expect(await lintOpenApiStructure(file)).toEqual([
      expect.objectContaining({
        severity: 'error',
        pointer: '/components/schemas/Note/properties/cleared/type',
        rule: 'openapi/structure',
      }),
    ]);
  });
});
