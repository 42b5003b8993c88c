/**
 * A schema whose `examples` is a map of named examples (as OpenAPI writes them beside a schema, in a media type or a
 * parameter) instead of the list JSON Schema 2020-12 asks for: an annotation, left out with a warning at the place,
 * so the document generates; the named examples of media types and parameters are not touched.
 */
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('schema-examples-map');

const document = {
  openapi: '3.1.0',
  info: { title: 'Planets', version: '1' },
  paths: {
    '/planets/{planetId}/image': {
      post: {
        operationId: 'uploadImage',
        parameters: [
          {
            name: 'planetId',
            in: 'path',
            required: true,
            schema: { type: 'integer' },
            examples: { mars: { value: 4 } },
          },
        ],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  image: { type: 'string', format: 'binary', examples: { mars: '@mars.jpg', jupiter: '@jupiter.png' } },
                  caption: { type: 'string', examples: ['Red'] },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                examples: { done: { value: { ok: true } } },
              },
            },
          },
        },
      },
    },
  },
};

describe("a schema's examples written as a map", () => {
  it('are left out with one warning at the place; the document generates and compiles', async () => {
    const { out, diagnostics, errors } = await generateAlone(work, 'planets', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const warnings = diagnostics.filter((d) => d.includes('(casi/schema-examples)'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      / warning a schema's examples are a list of values .* at #\/paths\/~1planets~1\{planetId\}~1image\/post\/requestBody\/content\/multipart~1form-data\/schema\/properties\/image\/examples$/,
    );
    expect(compileStrict(out)).toEqual([]);
  });

  it('a broken media type example is still reported: the named examples beside schemas are read as before', async () => {
    const broken = structuredClone(document);
    const media = broken.paths['/planets/{planetId}/image'].post.responses['200'].content['application/json'];
    media.examples.done.value = { ok: 'yes' } as never;
    const { diagnostics } = await generateAlone(work, 'planets-broken', 'openapi', broken);
    expect(diagnostics.some((d) => d.includes('(casi/valid-example)') && d.includes('/examples/done'))).toBe(true);
  });
});
