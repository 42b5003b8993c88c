import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { createAjv, metaSchemaVerdict, schemaId, toAjvSchema } from '../../generator/schema/ajv.js';
import { cachedFile, precompiled } from '../../generator/schema/precompiled.mjs';
import { ROOT, SPEC } from './helpers.js';

const require = createRequire(import.meta.url);
const { default: Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js');
const standalone = require('ajv/dist/standalone').default as (ajv: never, validate: never) => string;

const FOLDER = `test-precompiled-${process.pid}`;
afterAll(() => rmSync(join(ROOT, 'node_modules/.cache/casi', FOLDER), { recursive: true, force: true }));

const SCHEMA = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } };
const VALUES = [{ n: 1 }, { n: 0 }, {}, { n: 'x' }, null];

/** `precompiled`'s options for `key`, with a `compile` that counts its calls. */
function options(key: string) {
  const calls = { count: 0 };
  const compile = () => {
    calls.count++;
    const ajv = new Ajv2020({ code: { source: true } });
    return { ajv, validate: ajv.compile(SCHEMA), standalone };
  };
  return { calls, options: { folder: FOLDER, key, schema: SCHEMA, compile, from: require } };
}

describe('precompiled validators', () => {
  it('compiles once, then loads the stored code, which gives the same verdicts', () => {
    const { calls, options: once } = options('once');
    const compiled = precompiled(once);
    const loaded = precompiled(once);
    expect(calls.count).toBe(1);
    expect(loaded).not.toBe(compiled);
    expect(VALUES.map(loaded)).toEqual(VALUES.map(compiled));
    expect(VALUES.map(loaded)).toEqual([true, false, false, false, false]);
  });

  it('compiles over a stored file it cannot load, and replaces it', () => {
    const { calls, options: broken } = options('broken');
    const file = cachedFile(FOLDER, 'broken', SCHEMA);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'this is not JavaScript (');
    expect(VALUES.map(precompiled(broken))).toEqual([true, false, false, false, false]);
    expect(calls.count).toBe(1);
    expect(readFileSync(file, 'utf8')).toMatch(/^"use strict"/);
  });

  it('with CASI_CACHE=0, compiles every time', () => {
    const { calls, options: uncached } = options('uncached');
    process.env.CASI_CACHE = '0';
    try {
      precompiled(uncached);
      precompiled(uncached);
    } finally {
      delete process.env.CASI_CACHE;
    }
    expect(calls.count).toBe(2);
  });
});

describe('the precompiled JSON Schema meta-schema', () => {
  const stock = new Ajv2020({ strict: true, allowUnionTypes: true, discriminator: true });
  const broken = [
    { type: 'strin' },
    { required: 'name' },
    { minLength: -1 },
    { properties: [] },
    { $id: 5 },
    { items: { type: 'object', properties: { a: { enum: 'x' } } } },
  ];

  it("gives ajv's own verdict on every schema of the spec and on broken ones", async () => {
    const ir = buildIr(await loadSpecs(SPEC.openapi, SPEC.asyncapi));
    const schemas = [...ir.schemas.map((s) => toAjvSchema(s.schema)), ...broken];
    const verdict = metaSchemaVerdict();
    const verdicts = schemas.map((s) => verdict(s));
    expect(verdicts).toEqual(schemas.map((s) => stock.validateSchema(s as object)));
    expect(verdicts.filter((v) => !v)).toHaveLength(broken.length);
  });

  it("refuses a broken schema with ajv's own message", async () => {
    const ir = buildIr(await loadSpecs(SPEC.openapi, SPEC.asyncapi));
    const [spec, ...others] = ir.schemas;
    if (!spec) throw new Error('the spec has no schemas');
    const first = { ...spec, schema: { ...spec.schema, required: 'name' } };
    const expected = (() => {
      try {
        stock.addSchema({ ...(toAjvSchema(first.schema) as object), $id: schemaId(first.name) });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(expected).toMatch(/^schema is invalid: data\/required must be array/);
    expect(() => createAjv({ ...ir, schemas: [first, ...others] }, { standalone: false })).toThrow(expected);
  });
});
