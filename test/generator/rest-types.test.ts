import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString, type SchemaObject } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { restTypes } from '../../generator/emit/types/rest.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel } from '../../generator/pipeline.js';
import { FIXTURES, fixture, ROOT, SPEC } from './helpers.js';

const CORPUS = resolve(ROOT, '../shared/spec-corpus');

/** The options the REST types were printed with by openapi-typescript, the reference they are compared with. */
const REFERENCE_OPTIONS = {
  alphabetize: true,
  silent: true,
  defaultNonNullable: false,
  emptyObjectsUnknown: true,
  transform(schema: SchemaObject) {
    const raw = schema as Record<string, unknown>;
    const binary =
      raw.format === 'binary' ||
      (typeof raw.contentMediaType === 'string' && raw.type === undefined && raw.contentEncoding === undefined);
    if (!binary) return undefined;
    const blob = ts.factory.createTypeReferenceNode('Blob');
    const canBeNull = raw.nullable === true || (Array.isArray(raw.type) && raw.type.includes('null'));
    const nullType = ts.factory.createLiteralTypeNode(ts.factory.createNull());
    return canBeNull ? ts.factory.createUnionTypeNode([blob, nullType]) : blob;
  },
};

const corpus = readdirSync(CORPUS)
  .filter((name) => name.includes('.openapi.'))
  .map((name): [string, { openapi: string }] => [name, { openapi: join(CORPUS, name) }]);

describe('emit: the REST types', () => {
  it.each<[string, { openapi: string; asyncapi?: string }]>([
    ['the real spec', SPEC],
    ...FIXTURES.map((name): [string, { openapi: string; asyncapi: string }] => [name, fixture(name)]),
    ...corpus,
  ])('of %s are what openapi-typescript prints, and leave the document as it was', async (_name, spec) => {
    const { ir } = await buildModel(resolveOptions({ ...spec, out: '/nonexistent' }));
    const document = { ...(ir.openapi as Record<string, unknown>) };
    // openapiTS() bundles first, which adds the `components` a document without any lacks.
    document.components ??= {};
    const printed = astToString(await openapiTS(structuredClone(document) as never, REFERENCE_OPTIONS));
    // The description of a discriminator's tag names the tool that added it.
    const expected = printed.replaceAll('by openapi-typescript', 'by casi');
    const before = JSON.stringify(document);
    const actual = restTypes(document);
    expect(actual.length).toBeGreaterThan(1000);
    expect(actual === expected).toBe(true);
    expect(JSON.stringify(document)).toBe(before);
  });
});

describe('emit: the REST types where they differ from openapi-typescript', () => {
  it('type `const: null` as null (openapi-typescript: unknown)', () => {
    const types = restTypes({
      openapi: '3.1.0',
      info: { title: 'nulls', version: '1' },
      paths: {},
      components: {
        schemas: { Nothing: { const: null }, Empty: { type: 'object', properties: { a: { const: null } } } },
      },
    });
    expect(types).toContain('Nothing: null;');
    expect(types).toMatch(/Empty: \{\n(.*\n)*\s+a\?: null;/);
  });
});
