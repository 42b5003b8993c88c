/**
 * A request body declared as several media types with one schema (JSON, a form, multipart, as petstore-style
 * documents write it): the generated server accepts each, decodes it, and validates it with that schema; a type it
 * cannot read (XML) is refused as before.
 */
import { describe, expect, it } from 'vitest';
import { generateAlone, serveGenerated, workDirectory } from './generate-alone.js';

const work = workDirectory('media-alternatives');

const pet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, age: { type: 'integer' } } };
const document = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        operationId: 'addPet',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/Pet' } },
            'application/xml': { schema: { $ref: '#/components/schemas/Pet' } },
            'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Pet' } },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
    '/forms': {
      post: {
        operationId: 'sendForm',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Pet' } },
            'application/json': { schema: { $ref: '#/components/schemas/Pet' } },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: { schemas: { Pet: pet } },
};

describe('a request body with several media types of one schema', async () => {
  const { out, errors, diagnostics } = await generateAlone(work, 'pets', 'openapi', document);
  const answer = (req: { body: unknown }) => ({ status: 200, body: req.body });
  const echo = { addPet: answer, sendForm: answer };

  it('is accepted as each declared JSON or form type, decoded and validated alike', async () => {
    expect(errors, diagnostics.join('\n')).toBe(false);
    const { baseUrl } = await serveGenerated(out, echo);
    const send = (path: string, type: string, body: string) =>
      fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    const json = await send('/pets', 'application/json', JSON.stringify({ name: 'Rex', age: 3 }));
    expect([json.status, await json.json()]).toEqual([200, { name: 'Rex', age: 3 }]);
    const form = await send('/pets', 'application/x-www-form-urlencoded', 'name=Rex&age=3');
    expect([form.status, await form.json()]).toEqual([200, { name: 'Rex', age: 3 }]);
    const bad = await send('/pets', 'application/x-www-form-urlencoded', 'age=three');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/\/age|name/);
    const xml = await send('/pets', 'application/xml', '<pet><name>Rex</name></pet>');
    // A JSON route answers a body it cannot read as it always has: 400, naming the content type it needs.
    expect(xml.status).toBe(400);
    expect(JSON.stringify(await xml.json())).toContain('content-type');
    const back = await send('/forms', 'application/json', JSON.stringify({ name: 'Tom', age: 2 }));
    expect([back.status, await back.json()]).toEqual([200, { name: 'Tom', age: 2 }]);
    const formFirst = await send('/forms', 'application/x-www-form-urlencoded', 'name=Tom&age=2');
    expect([formFirst.status, await formFirst.json()]).toEqual([200, { name: 'Tom', age: 2 }]);
  });
});
