/** Which parameters the generator asks the server to decode, and how (`parameterDecodings`). */
import { describe, expect, it } from 'vitest';
import type { IrOperation, IrParameter } from '../../generator/ir/model.js';
import { parameterDecodings } from '../../generator/schema/operations.js';

function param(p: Partial<IrParameter> & Pick<IrParameter, 'name' | 'in' | 'schema'>): IrParameter {
  return { required: false, description: '', ...p };
}

/** An operation with just the parameters `parameterDecodings` reads. */
function operation(params: IrParameter[]): IrOperation {
  const of = (location: IrParameter['in']) => params.filter((p) => p.in === location);
  return {
    parameters: { path: of('path'), query: of('query'), header: of('header'), cookie: of('cookie') },
    credentialParameters: [],
  } as unknown as IrOperation;
}

const components = new Map([['Color', { type: 'array', items: { type: 'integer' } }]]);

describe('parameterDecodings', () => {
  it('lists nothing for plain strings and query primitives in their default styles', () => {
    const op = operation([
      param({ name: 'id', in: 'path', schema: { type: 'string' } }),
      param({ name: 'limit', in: 'query', schema: { type: 'integer' } }),
      param({ name: 'X-Trace', in: 'header', schema: { type: 'string' } }),
      param({ name: 'session', in: 'cookie', schema: { type: 'string' } }),
    ]);
    expect(parameterDecodings(op, components)).toEqual({});
  });

  it('lists arrays and objects (through references), non-string values and other styles, defaults filled in', () => {
    const op = operation([
      param({ name: 'petId', in: 'path', schema: { type: 'integer' } }),
      param({ name: 'slug', in: 'path', style: 'label', schema: { type: 'string' } }),
      param({ name: 'color', in: 'query', schema: { $ref: '#/components/schemas/Color' } }),
      param({ name: 'X-Point', in: 'header', schema: { type: 'object', properties: { x: { type: 'number' } } } }),
      param({ name: 'debug', in: 'cookie', explode: false, schema: { type: ['boolean', 'null'] } }),
    ]);
    expect(parameterDecodings(op, components)).toEqual({
      path: {
        petId: { style: 'simple', explode: false, shape: { type: 'integer' } },
        slug: { style: 'label', explode: false, shape: { type: 'string' } },
      },
      query: { color: { style: 'form', explode: true, shape: { items: 'integer' } } },
      header: { 'x-point': { style: 'simple', explode: false, shape: { properties: { x: 'number' } } } },
      cookie: { debug: { style: 'form', explode: false, shape: { type: 'boolean' } } },
    });
  });

  it('lists every query parameter beside an exploded object without declared members', () => {
    const op = operation([
      param({ name: 'q', in: 'query', schema: { type: 'string' } }),
      param({ name: 'filter', in: 'query', schema: { type: 'object', additionalProperties: { type: 'string' } } }),
    ]);
    expect(parameterDecodings(op, components).query).toEqual({
      q: { style: 'form', explode: true, shape: { type: 'string' } },
      filter: { style: 'form', explode: true, shape: { properties: {} } },
    });
  });

  it('reads a JSON content parameter as JSON text in every location, whatever its schema', () => {
    const op = operation([
      param({ name: 'filter', in: 'query', json: true, schema: { type: 'string' } }),
      param({ name: 'where', in: 'path', json: true, schema: { type: 'object' } }),
    ]);
    expect(parameterDecodings(op, components)).toEqual({
      path: { where: { style: 'simple', explode: false, shape: { json: true } } },
      query: { filter: { style: 'form', explode: true, shape: { json: true } } },
    });
  });
});
