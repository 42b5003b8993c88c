/** The IR of documents written without this service's conventions: names, methods, parameters, 3.0 schemas. */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { asJsonSchemaDialect } from '../../generator/ir/openapi30.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { codeNames } from '../../generator/names.js';

/** The IR of one OpenAPI document given as an object, with no AsyncAPI document. */
async function irOf(openapi: object) {
  const { asyncapi } = await loadSpecs(undefined, undefined);
  return buildIr({ openapi: parseSourceDocument('/virtual/openapi.json', JSON.stringify(openapi)), asyncapi });
}

const board = {
  openapi: '3.1.0',
  info: { title: 'Tic Tac Toe', version: '1' },
  paths: {
    '/board/{row}/{column}': {
      parameters: [
        { name: 'row', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'column', in: 'path', required: true, schema: { type: 'integer' } },
      ],
      get: { operationId: 'get-square', tags: ['Gameplay'], responses: { '200': { description: 'ok' } } },
      put: { operationId: 'put-square', tags: ['Gameplay'], responses: { '200': { description: 'ok' } } },
      patch: { operationId: 'get-square', responses: { '200': { description: 'ok' } } },
    },
    '/pets/{id}': { delete: { responses: { '204': { description: 'gone' } } }, head: { responses: {} } },
  },
};

describe('operations of any OpenAPI document', () => {
  it('keeps every method, names methods from operationId or method and path, and groups by tag or path', async () => {
    const ir = await irOf(board);
    expect(ir.operations.map((op) => [op.resource, op.methodName, op.method, op.id])).toEqual([
      ['board', 'getSquare', 'patch', 'get-square'],
      ['gameplay', 'getSquare', 'get', 'get-square2'],
      ['gameplay', 'putSquare', 'put', 'put-square'],
      ['pets', 'deletePetsId', 'delete', 'delete /pets/{id}'],
      ['pets', 'headPetsId', 'head', 'head /pets/{id}'],
    ]);
  });

  it('takes path parameters in path order, with their schemas', async () => {
    const square = (await irOf(board)).operations.find((op) => op.method === 'get');
    expect(square?.parameters.path.map((p) => [p.name, p.schema.type])).toEqual([
      ['row', 'integer'],
      ['column', 'integer'],
    ]);
  });

  it('numbers an operationId given twice, with a warning at the operation', async () => {
    const ir = await irOf(board);
    expect(ir.warnings).toEqual([
      {
        document: 'openapi',
        pointer: '/paths/~1board~1{row}~1{column}/get',
        message: 'GET /board/{row}/{column}: operationId get-square is taken: its handler is get-square2',
      },
    ]);
  });

  it('warns of a path that holds a fragment, which no request can carry', async () => {
    const ir = await irOf({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: { '/cookies': { get: { responses: {} } }, '/cookies#exploded': { get: { responses: {} } } },
    });
    expect(ir.warnings).toContainEqual({
      document: 'openapi',
      pointer: '/paths/~1cookies#exploded',
      message: 'the path /cookies#exploded holds a fragment, which no request carries: the client sends /cookies',
    });
    expect(ir.warnings).toHaveLength(1);
  });

  it('says which OpenAPI 3.2 operations it does not generate (query, additionalOperations), at each', async () => {
    const ir = await irOf({
      openapi: '3.2.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/trips/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: { operationId: 'get-trip', responses: {} },
          query: { operationId: 'query-trip', responses: {} },
          additionalOperations: { SUBSCRIBE: { operationId: 'subscribe-trip', responses: {} } },
        },
      },
    });
    expect(ir.operations.map((op) => op.id)).toEqual(['get-trip']);
    expect(ir.warnings.map((w) => [w.pointer, w.message.split(' (')[0]])).toEqual([
      ['/paths/~1trips~1{id}/query', 'the QUERY operation'],
      ['/paths/~1trips~1{id}/additionalOperations/SUBSCRIBE', 'the SUBSCRIBE operation'],
    ]);
    expect(ir.warnings.every((w) => w.message.endsWith('so it has no client method and no route'))).toBe(true);
  });

  it('numbers a resource named like a member the client has already (raw, core), with a warning', async () => {
    const ir = await irOf({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/raw': { post: { operationId: 'postRaw', responses: {} } },
        '/core/{id}': { get: { operationId: 'getCore', responses: {} } },
        '/raw2': { get: { operationId: 'getRaw2', responses: {} } },
      },
    });
    expect(ir.operations.map((op) => [op.resource, op.methodName])).toEqual([
      ['core2', 'getCore'],
      ['raw2', 'getRaw2'],
      ['raw3', 'postRaw'],
    ]);
    expect(ir.warnings.map((w) => w.message)).toEqual([
      'POST /raw: the client has a member raw already: the resource is raw3',
      'GET /core/{id}: the client has a member core already: the resource is core2',
    ]);
  });

  it('numbers a method name taken twice in one resource', async () => {
    const ir = await irOf({
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/a': { get: { operationId: 'list', tags: ['x'], responses: {} } },
        '/b': { get: { operationId: 'list', tags: ['x'], responses: {} } },
      },
    });
    expect(ir.operations.map((op) => `${op.resource}.${op.methodName} ${op.id}`)).toEqual([
      'x.list list',
      'x.list2 list2',
    ]);
  });
});

describe('codeNames', () => {
  it.each<[string[], Record<string, string>]>([
    [['Widget', 'lightMeasured'], { Widget: 'Widget', lightMeasured: 'lightMeasured' }],
    [
      ['Links-Booking', 'v1.Thing', 'a/b c'],
      { 'Links-Booking': 'LinksBooking', 'v1.Thing': 'V1Thing', 'a/b c': 'ABC' },
    ],
    [['Links-Booking', 'LinksBooking'], { 'Links-Booking': 'LinksBooking2', LinksBooking: 'LinksBooking' }],
    [['1st', 'string', 'default'], { '1st': '_1st', string: 'String', default: 'Default' }],
  ])('%j', (names, expected) => {
    expect(Object.fromEntries(codeNames(names))).toEqual(expected);
  });
});

describe('OpenAPI 3.0 schemas read as JSON Schema 2020-12', () => {
  const doc = (schema: object) => ({ openapi: '3.0.3', components: { schemas: { S: schema } } });
  const read = (schema: object) =>
    (asJsonSchemaDialect(doc(schema)) as { components: { schemas: { S: unknown } } }).components.schemas.S;

  it.each<[string, object, unknown]>([
    ['nullable adds null to the type', { type: 'string', nullable: true }, { type: ['string', 'null'] }],
    [
      'and to an enum',
      { type: 'string', enum: ['a'], nullable: true },
      { type: ['string', 'null'], enum: ['a', null] },
    ],
    [
      'without a type, either the schema or null',
      { $ref: '#/x', nullable: true },
      { anyOf: [{ $ref: '#/x' }, { type: 'null' }] },
    ],
    ['nullable: false is dropped', { type: 'integer', nullable: false }, { type: 'integer' }],
    ['boolean exclusiveMinimum', { minimum: 1, exclusiveMinimum: true }, { exclusiveMinimum: 1 }],
    ['boolean exclusiveMaximum false', { maximum: 9, exclusiveMaximum: false }, { maximum: 9 }],
    ['examples stay as written', { example: { nullable: true } }, { example: { nullable: true } }],
    [
      'a property named nullable is a property',
      { properties: { nullable: { type: 'boolean' } } },
      { properties: { nullable: { type: 'boolean' } } },
    ],
  ])('%s', (_name, schema, expected) => {
    expect(read(schema)).toEqual(expected);
  });

  it('leaves 3.1 documents as they are', () => {
    const given = { openapi: '3.1.0', components: { schemas: { S: { type: 'string', nullable: true } } } };
    expect(asJsonSchemaDialect(given)).toBe(given);
  });
});
