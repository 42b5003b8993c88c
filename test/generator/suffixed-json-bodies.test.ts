/**
 * Request bodies of `+json` media types (`application/merge-patch+json`, `application/vnd.api+json`), as PATCH
 * operations of real APIs declare them: the generated client sends them as JSON and the generated Fastify server reads
 * and validates them as JSON, over loopback.
 */
import { describe, expect, it } from 'vitest';
import { generateAlone, serveGenerated, workDirectory } from './generate-alone.js';

const work = workDirectory('suffixed-json');

const tree = { type: 'object', properties: { value: { type: 'string' } }, additionalProperties: false };
const document = {
  openapi: '3.1.0',
  info: { title: 'JSON media types', version: '1.0.0' },
  paths: {
    '/trees/{id}': {
      patch: {
        operationId: 'patchTree',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: tree } } },
        responses: { '200': { description: 'patched', content: { 'application/json': { schema: tree } } } },
      },
    },
  },
};

describe('+json request bodies', () => {
  it('travel as JSON from the generated client to the generated server, and are validated there', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'suffixed-json', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const received: unknown[] = [];
    const { baseUrl, createClient } = await serveGenerated<{
      trees: { patchTree: (id: number, body: object) => Promise<unknown> };
    }>(out, {
      patchTree: (req: { body: unknown }) => {
        received.push(req.body);
        return { status: 200, body: req.body };
      },
    });

    expect(await createClient({ baseUrl, maxRetries: 0 }).trees.patchTree(7, { value: 'oak' })).toEqual({
      value: 'oak',
    });
    const patch = (contentType: string, body: string) =>
      fetch(`${baseUrl}/trees/7`, { method: 'PATCH', headers: { 'content-type': contentType }, body });
    const withCharset = await patch('application/merge-patch+json; charset=utf-8', '{"value":"elm"}');
    expect(withCharset.status).toBe(200);
    const invalid = await patch('application/merge-patch+json', '{"value":3}');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ data: [{ in: 'body', pointer: '/value' }] });
    expect(received).toEqual([{ value: 'oak' }, { value: 'elm' }]);
  }, 120_000);
});
