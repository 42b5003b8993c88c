/**
 * A `pattern` is an ECMA-262 expression (JSON Schema 2020-12, 6.3.3). ajv compiles patterns with the `u` flag, which
 * refuses some valid ECMA-262 (a lone `{`, an identity escape such as `\-`): such a pattern is compiled without `u`,
 * alike by `casi validate`/`casi serve` (ajv at run time) and by the generated standalone validators.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';
import { patternRegExp } from '../../templates/shared/formats.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('ecma-patterns');

/** A braced or bare GUID-like code: `{` and `}` stand for themselves, which only non-`u` ECMA-262 allows. */
const GUID = '^(?:{[0-9a-f]{4}(?:-?[0-9a-f]{4}){1}}|[0-9a-f]{4}(?:-?[0-9a-f]{4}){1})$';
/** A letter of any script: `\p{L}` is a property escape with `u`, and stands for `p{L}` without it. */
const LETTERS = '^\\p{L}+$';

const document = {
  openapi: '3.0.3',
  info: { title: 'Patterns', version: '1' },
  paths: {
    '/codes': {
      get: {
        operationId: 'findCode',
        parameters: [{ name: 'code', in: 'query', schema: { type: 'string', pattern: GUID } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Code' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Code: {
        type: 'object',
        properties: { guid: { type: 'string', pattern: GUID }, dashed: { type: 'string', pattern: '^a\\-b$' } },
      },
      Word: { type: 'string', pattern: LETTERS },
    },
  },
};

describe('patternRegExp', () => {
  it('keeps the u flag where the pattern parses with it', () => {
    expect(patternRegExp(LETTERS, 'u').flags).toBe('u');
    expect(patternRegExp(LETTERS, 'u').test('été')).toBe(true);
  });

  it('reads a pattern the u flag refuses as ECMA-262 without it', () => {
    expect(patternRegExp(GUID, 'u').test('{abcd-0123}')).toBe(true);
    expect(patternRegExp(GUID, 'u').test('{abcd-0123')).toBe(false);
    expect(patternRegExp('^a\\-b$', 'u').test('a-b')).toBe(true);
  });

  it('still refuses what is no ECMA-262 expression at all', () => {
    expect(() => patternRegExp('(', 'u')).toThrow(/Invalid regular expression/);
  });
});

describe('patterns valid only without the u flag', () => {
  it('validate at run time, as casi validate and casi serve compile them', async () => {
    const { asyncapi } = await loadSpecs(undefined, undefined);
    const ir = buildIr({ openapi: parseSourceDocument('/virtual/openapi.json', JSON.stringify(document)), asyncapi });
    const ajv = createAjv(ir, { standalone: false });
    const code = ajv.getSchema(schemaId('Code'));
    expect(code?.({ guid: '{abcd-0123}', dashed: 'a-b' })).toBe(true);
    expect(code?.({ guid: '{abcd-012}' })).toBe(false);
    expect(code?.({ dashed: 'ab' })).toBe(false);
    expect(ajv.getSchema(schemaId('Word'))?.('été')).toBe(true);
  });

  it('validate the same in the generated validators, whose package compiles with tsc --strict', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'patterns', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    expect(compileStrict(out)).toEqual([]);
    const validators = (await import(join(out, 'src/validators.gen.ts'))) as Record<string, (data: unknown) => boolean>;
    expect(validators.validateCode?.({ guid: '{abcd-0123}', dashed: 'a-b' })).toBe(true);
    expect(validators.validateCode?.({ guid: '{abcd-0123' })).toBe(false);
    expect(validators.validateWord?.('été')).toBe(true);
    expect(validators.validateWord?.('p{L}')).toBe(false);
  }, 120_000);
});
