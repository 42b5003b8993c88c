/**
 * OpenAPI 3.0 keywords written in a 3.1 document, whose schemas are JSON Schema 2020-12: a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (never valid 2020-12) is read as 3.0 meant it, with a warning at each place;
 * `nullable` stays an annotation (it adds no `null`) and compiles, typed or not.
 */
import { describe, expect, it } from 'vitest';
import { modelOf } from '../../generator/check/index.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';

const document = {
  openapi: '3.1.0',
  info: { title: '3.0 keywords', version: '1' },
  paths: {},
  components: {
    schemas: {
      Range: {
        type: 'object',
        properties: {
          open: { type: 'integer', minimum: 10, exclusiveMinimum: true, maximum: 20, exclusiveMaximum: true },
          closed: { type: 'integer', minimum: 10, exclusiveMinimum: false },
          unbounded: { type: 'integer', exclusiveMaximum: true },
          // A property named like the keyword is a property, not a bound.
          exclusiveMinimum: true,
        },
      },
      Label: { type: 'string', nullable: true },
      Anything: { nullable: true },
    },
  },
};

async function specsOf(doc: object) {
  const { asyncapi } = await loadSpecs(undefined, undefined);
  const text = JSON.stringify(doc, null, 2);
  return { openapi: parseSourceDocument('/virtual/openapi.json', text), asyncapi };
}

describe('OpenAPI 3.0 keywords in a 3.1 document', () => {
  it('boolean bounds are read as the numbers they qualify, and validate so', async () => {
    const ajv = createAjv(buildIr(await specsOf(document)), { standalone: false });
    const range = ajv.getSchema(schemaId('Range'));
    expect(range?.({ open: 11, closed: 10, unbounded: 1e9 })).toBe(true);
    expect(range?.({ open: 10 })).toBe(false);
    expect(range?.({ open: 20 })).toBe(false);
    expect(range?.({ closed: 9 })).toBe(false);
    expect(range?.({ exclusiveMinimum: 'any value' })).toBe(true);
  });

  it('each boolean bound is one warning at its place, under its rule, saying how it was read', async () => {
    const specs = await specsOf(document);
    const { diagnostics } = modelOf({ ...specs, files: [] });
    const bounds = diagnostics.filter((d) => d.rule === 'casi/openapi-3.0-keyword');
    expect(bounds.map((d) => [d.severity, d.pointer, d.line > 1, d.message.split(': ').at(-1)])).toEqual([
      ['warning', '/components/schemas/Range/properties/open/exclusiveMinimum', true, '10'],
      ['warning', '/components/schemas/Range/properties/open/exclusiveMaximum', true, '20'],
      ['warning', '/components/schemas/Range/properties/closed/exclusiveMinimum', true, 'ignored'],
      ['warning', '/components/schemas/Range/properties/unbounded/exclusiveMaximum', true, 'ignored'],
    ]);
    const at = specs.openapi.locate('/components/schemas/Range/properties/open/exclusiveMinimum');
    expect([bounds[0]?.line, bounds[0]?.column]).toEqual([at.line, at.column]);
  });

  it('nullable is an annotation: it compiles with or without a type, and adds no null', async () => {
    const ajv = createAjv(buildIr(await specsOf(document)), { standalone: true });
    expect(ajv.getSchema(schemaId('Label'))?.(null)).toBe(false);
    expect(ajv.getSchema(schemaId('Label'))?.('text')).toBe(true);
    expect(ajv.getSchema(schemaId('Anything'))?.(null)).toBe(true);
  });
});
