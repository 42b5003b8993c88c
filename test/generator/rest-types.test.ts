import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { REST_TYPE_OPTIONS, restTypes } from '../../generator/emit/types/rest.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel } from '../../generator/pipeline.js';
import { FIXTURES, fixture, SPEC } from './helpers.js';

describe('emit: the REST types', () => {
  it.each<[string, { openapi: string; asyncapi: string }]>([
    ['the real spec', SPEC],
    ...FIXTURES.map((name): [string, { openapi: string; asyncapi: string }] => [name, fixture(name)]),
  ])(
    'of %s are what openapiTS() prints after its own lint and bundle, and leave the document as it was',
    async (_name, spec) => {
      const { ir } = await buildModel(resolveOptions({ ...spec, out: '/nonexistent' }));
      const expected = astToString(await openapiTS(structuredClone(ir.openapi) as never, REST_TYPE_OPTIONS));
      const before = JSON.stringify(ir.openapi);
      const actual = restTypes(ir.openapi);
      expect(actual.length).toBeGreaterThan(1000);
      expect(actual === expected).toBe(true);
      expect(JSON.stringify(ir.openapi)).toBe(before);
    },
  );
});
