/** Binary schemas are typed `Blob` in the REST types, as a client sends and reads them. */
import { describe, expect, it } from 'vitest';
import { restTypes } from '../../generator/emit/types/rest.js';

/** The printed type of the component schema `Thing` of a document holding only `schema`. */
function typeOf(schema: object): string {
  const text = restTypes({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Thing: { type: 'object', properties: { part: schema } } } },
  });
  return /part\?: ([^;]+);/.exec(text)?.[1] ?? text;
}

describe('binary schemas in the REST types', () => {
  it.each([
    [{ type: 'string', format: 'binary' }, 'Blob'],
    [{ type: ['string', 'null'], format: 'binary' }, 'Blob | null'],
    [{ contentMediaType: 'image/png' }, 'Blob'],
    [{ type: 'string', contentMediaType: 'application/json' }, 'string'],
    [{ contentMediaType: 'image/png', contentEncoding: 'base64' }, 'unknown'],
    [{ type: 'string', format: 'byte' }, 'string'],
  ])('%j is %s', (schema, type) => {
    expect(typeOf(schema)).toBe(type);
  });
});
