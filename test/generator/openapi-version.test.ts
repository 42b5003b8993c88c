/** A Swagger 2.0 document is refused with one located error, not generated into a client with every type lost. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('openapi-version');

const swagger = {
  swagger: '2.0',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
        responses: { '200': { description: 'a pet', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
};

describe('the OpenAPI version', () => {
  it('refuses Swagger 2.0 at its version field, saying what casi reads, and writes nothing', async () => {
    const { errors, diagnostics, out } = await generateAlone(work, 'swagger', 'openapi', swagger);
    expect(errors).toBe(true);
    expect(diagnostics.filter((d) => d.includes(' error '))).toEqual([
      expect.stringMatching(
        /swagger\.openapi\.json:2:14 error casi reads OpenAPI 3\.0 and 3\.1 documents, and this one is swagger: 2\.0: convert it to OpenAPI 3 first .*\(casi\/openapi-version\) at #\/swagger$/,
      ),
    ]);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('takes 3.0 and 3.1 documents without that error', async () => {
    for (const version of ['3.0.3', '3.1.0']) {
      const document = { openapi: version, info: { title: 'T', version: '1' }, paths: {} };
      const { diagnostics } = await generateAlone(work, `v${version}`, 'openapi', document);
      expect(diagnostics.join('\n')).not.toContain('casi/openapi-version');
    }
  }, 60_000);
});
