/** Marking inferred elements for Redoc: badges where Redoc shows them, a leading note elsewhere. */
import { describe, expect, it } from 'vitest';
import { INFERRED_NOTE, INFERRED_X_BADGE, prepareRestDocument } from '../../generator/docs/rest-document.js';

const given = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1', description: 'Intro.' },
  paths: {
    '/things': {
      parameters: [{ name: 'p', in: 'query', 'x-casi-inferred': true, schema: { type: 'string' } }],
      get: {
        operationId: 'listThings',
        'x-casi-inferred': true,
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        responses: {
          '200': {
            description: 'The things.',
            'x-casi-inferred': true,
            headers: { 'Retry-After': { 'x-casi-inferred': true, schema: { type: 'integer' } } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { n: { type: 'integer', 'x-casi-inferred': true } },
                  allOf: [{ 'x-casi-inferred': true }],
                },
              },
            },
          },
        },
      },
      post: { operationId: 'createThing', responses: { '200': { description: 'Created.' } } },
    },
  },
  webhooks: { thingCreated: { post: { operationId: 'thingCreated', 'x-casi-inferred': true, responses: {} } } },
  components: {
    parameters: { Limit: { name: 'limit', in: 'query', 'x-casi-inferred': true, schema: { type: 'integer' } } },
    schemas: {
      Thing: {
        type: 'object',
        'x-casi-inferred': true,
        properties: { id: { type: 'string', 'x-casi-inferred': true } },
      },
      // A property literally named like a keyword is still a schema.
      Odd: { type: 'object', properties: { schema: { type: 'string', 'x-casi-inferred': true } } },
    },
  },
};

type Obj = Record<string, unknown>;

describe('prepareRestDocument', () => {
  const { document, inferredOperations } = prepareRestDocument(given);
  /** The node at `keys` of the marked document. */
  const at = (...keys: string[]): Obj => keys.reduce<unknown>((node, key) => (node as Obj)[key], document) as Obj;
  const badged = (node: Obj) =>
    Array.isArray(node['x-badges']) && node['x-badges'].some((b: Obj) => b.name === INFERRED_X_BADGE.name);
  const schema = ['paths', '/things', 'get', 'responses', '200', 'content', 'application/json', 'schema'];

  it.each([
    ['an operation', () => at('paths', '/things', 'get')],
    ['a webhook operation', () => at('webhooks', 'thingCreated', 'post')],
    ['a path-level parameter', () => at('paths', '/things', 'parameters', '0')],
    ['a component parameter', () => at('components', 'parameters', 'Limit')],
    ['a component schema', () => at('components', 'schemas', 'Thing')],
    ['a property', () => at('components', 'schemas', 'Thing', 'properties', 'id')],
    ['a property named like a keyword', () => at('components', 'schemas', 'Odd', 'properties', 'schema')],
    ['an inline property', () => at(...schema, 'properties', 'n')],
    ['an allOf member', () => at(...schema, 'allOf', '0')],
  ])('badges %s', (_name, node) => {
    expect(badged(node())).toBe(true);
    expect(node().description ?? '').not.toContain(INFERRED_NOTE);
  });

  it.each([
    ['a response', () => at('paths', '/things', 'get', 'responses', '200'), 'The things.'],
    [
      'a header without a description',
      () => at('paths', '/things', 'get', 'responses', '200', 'headers', 'Retry-After'),
      '',
    ],
  ])('starts the description of %s with the note', (_name, node, text) => {
    expect(node().description).toBe(text ? `${INFERRED_NOTE} ${text}` : INFERRED_NOTE);
    expect(badged(node())).toBe(false);
  });

  it('leaves the rest alone, and the input unchanged', () => {
    expect(at('paths', '/things', 'post')['x-badges']).toBeUndefined();
    expect(JSON.stringify(given)).not.toContain('x-badges');
    expect(JSON.stringify(given)).not.toContain(INFERRED_NOTE);
  });

  it('lists the inferred operations and links the events reference from the introduction', () => {
    expect(inferredOperations).toEqual(['listThings', 'thingCreated']);
    expect(at('info').description).toMatch(/^Intro\.\n\n/);
    expect(at('info').description).toContain('[events reference](events.html)');
  });
});
