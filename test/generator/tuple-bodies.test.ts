/**
 * Tuples (`prefixItems`, with or without `items: false`) in answers and request bodies: the generated client returns
 * them as tuples (not arrays), the package compiles with tsc --strict, and the generated client and server exchange
 * them over loopback, the server holding a request to the tuple's length.
 */
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, serveGenerated, workDirectory } from './generate-alone.js';

const work = workDirectory('tuple-bodies');

const json = (schema: object) => ({ 'application/json': { schema } });
const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 };
const document = {
  openapi: '3.1.0',
  info: { title: 'Tuples', version: '1.0.0' },
  paths: {
    '/points/{id}': {
      get: {
        operationId: 'getPoint',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'a point', content: json({ $ref: '#/components/schemas/Point' }) } },
      },
      put: {
        operationId: 'labelPoint',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, content: json(pair) },
        responses: { '200': { description: 'the label, open-ended', content: json({ prefixItems: [pair] }) } },
      },
    },
    '/shapes': {
      get: {
        operationId: 'getShape',
        responses: { '200': { description: 'a shape', content: json({ $ref: '#/components/schemas/Shape' }) } },
      },
    },
  },
  components: {
    schemas: {
      Point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 },
      Shape: {
        type: 'object',
        required: ['corners'],
        properties: { corners: { type: 'array', items: { $ref: '#/components/schemas/Point' } } },
      },
    },
  },
};

type TupleClient = {
  points: {
    getPoint: (id: number) => Promise<unknown>;
    labelPoint: (id: number, body: unknown) => Promise<unknown>;
  };
  shapes: { getShape: () => Promise<unknown> };
};

describe('tuple bodies', () => {
  it('are typed as tuples by the client methods, and the package compiles with tsc --strict', async () => {
    const { out, errors, diagnostics, files } = await generateAlone(work, 'tuples', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const types = files.find((f) => f.path === 'src/types.gen.ts')?.content ?? '';
    expect(types).toMatch(/Point: \[\s*number,\s*number\s*\];/);
    const client = files.find((f) => f.path === 'src/client.gen.ts')?.content ?? '';
    expect(client).toMatch(/getPoint: \(id: [^)]*\): ApiPromise<types\.Point>/);
    expect(compileStrict(out)).toEqual([]);
  }, 120_000);

  it('travel between the generated client and server, which refuses a tuple of the wrong length', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'tuples-served', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const { baseUrl, createClient } = await serveGenerated<TupleClient>(out, {
      getPoint: (req: { params: { id: number } }) => ({ status: 200, body: [req.params.id, 0.5] }),
      labelPoint: (req: { body: [string, number] }) => ({ status: 200, body: [req.body, 'extra'] }),
      getShape: () => ({
        status: 200,
        body: {
          corners: [
            [0, 0],
            [1, 2],
          ],
        },
      }),
    });
    const client = createClient({ baseUrl, maxRetries: 0 });

    expect(await client.points.getPoint(3)).toEqual([3, 0.5]);
    expect(await client.points.labelPoint(3, ['north', 1])).toEqual([['north', 1], 'extra']);
    expect(await client.shapes.getShape()).toEqual({
      corners: [
        [0, 0],
        [1, 2],
      ],
    });
    await expect(client.points.labelPoint(3, ['north', 1, 'more'])).rejects.toMatchObject({ status: 400 });
    await expect(client.points.labelPoint(3, [1, 'north'])).rejects.toMatchObject({ status: 400 });
  }, 120_000);
});
