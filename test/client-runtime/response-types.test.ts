/** The types a generated method returns for each kind of success answer (`responseBodyType`, shared with the server). */
import { describe, expect, it } from 'vitest';
import { bodyType, responseBodyType } from '../../generator/emit/shared/operation-types.js';
import type { IrOperation, IrResponse } from '../../generator/ir/model.js';

const op = { path: '/things', method: 'get' } as IrOperation;
const ref = { $ref: '#/components/schemas/Tick' };
const answer = (contentType: string, more: Partial<IrResponse> = {}): IrResponse => ({
  status: '200',
  description: '',
  headers: [],
  contentType,
  ...more,
});

describe('responseBodyType', () => {
  it.each([
    ['JSON with a component schema', answer('application/json', { schema: ref }), 'types.Tick'],
    ['a +json type', answer('application/problem+json', { schema: ref }), 'types.Tick'],
    ['JSON without a schema', answer('application/json'), undefined],
    ['text', answer('text/plain', { schema: { type: 'string' } }), 'string'],
    ['XML, read as text', answer('application/xml', { schema: ref }), 'string'],
    ['bytes', answer('image/png', { schema: { type: 'string', format: 'binary' } }), 'Blob'],
    ['bytes without a schema', answer('application/octet-stream'), 'Blob'],
    ['an event stream: one item of its schema', answer('text/event-stream', { schema: ref }), 'types.Tick'],
    ['an event stream: its itemSchema', answer('text/event-stream', { schema: {}, itemSchema: ref }), 'types.Tick'],
    [
      'an event stream with an inline schema',
      answer('text/event-stream', { schema: { type: 'object' } }),
      `types.paths['/things']['get']['responses']['200']['content']['text/event-stream']`,
    ],
    [
      'an event stream with an inline itemSchema',
      answer('text/event-stream', { itemSchema: { type: 'object' } }),
      'unknown',
    ],
    ['an event stream without a schema', answer('text/event-stream'), 'unknown'],
    ['no body', { status: '204', description: '', headers: [] }, undefined],
  ])('%s', (_, response, type) => {
    expect(responseBodyType(op, response)).toBe(type);
  });
});

describe('bodyType', () => {
  const withBody = (contentType: string) =>
    ({ ...op, method: 'post', requestBody: { required: true, contentType, schema: ref } }) as IrOperation;

  it('is the component type for JSON, string for text, and the media type’s type otherwise', () => {
    expect(bodyType(withBody('application/json'))).toBe('types.Tick');
    expect(bodyType(withBody('text/plain'))).toBe('string');
    expect(bodyType(withBody('multipart/form-data'))).toBe(
      `NonNullable<types.paths['/things']['post']['requestBody']>['content']['multipart/form-data']`,
    );
  });
});
