/**
 * The helpers ajv's standalone code requires (`ucs2length`, `equal`) come from the package's runtime, imported under
 * the name `require` its code calls: the validators that use them judge as JSON Schema says, in modules with no
 * bundler step, and a check that stops at the first problem lives in a module of its own.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ajvRuntime } from '../../templates/shared/ajv-runtime.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('ajv-runtime');

const document = {
  openapi: '3.1.0',
  info: { title: 'Helpers', version: '1' },
  paths: {},
  components: {
    schemas: {
      Team: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 2 },
          rules: { const: { points: [25, { fastestLap: 1 }] } },
          tyres: { type: 'array', uniqueItems: true },
          mode: { enum: [{ race: 'sprint' }, { race: 'grand prix' }] },
        },
      },
      Lap: { $async: true, type: 'integer', minimum: 1 },
      Entry: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Team' }] },
    },
  },
};

type Validate = ((value: unknown) => boolean) & { errors: unknown };

describe('the ajv runtime helpers of the generated validators', async () => {
  const { out, files, errors, diagnostics } = await generateAlone(work, 'helpers', 'openapi', document);
  const text = (path: string) => files.find((f) => f.path === path)?.content ?? '';

  it('are imported from the runtime, never from ajv', () => {
    expect(errors, diagnostics.join('\n')).toBe(false);
    for (const path of ['src/validators.raw.gen.ts', 'src/validators.checks.raw.gen.ts']) {
      expect(text(path)).toContain("import { ajvRuntime as require } from './runtime/shared/ajv-runtime.js';");
    }
    expect(text('src/validators.gen.ts')).toContain("import * as checks from './validators.checks.raw.gen.js';");
    expect(files.some((f) => f.path === 'src/runtime/shared/ajv-runtime.ts')).toBe(true);
  });

  it('count lengths in code points, compare values deeply, and back the stop-at-first check', async () => {
    const { validators } = (await import(join(out, 'src/validators.gen.ts'))) as {
      validators: { Team: Validate; Entry: Validate; Lap: Validate };
    };
    const { Team, Entry, Lap } = validators;
    // ajv's `$async` is no JSON Schema keyword: the validator still answers at once.
    expect(Lap(0)).toBe(false);
    expect(Lap(3)).toBe(true);
    expect(Team({ name: '😀😀' })).toBe(true);
    expect(Team({ name: 'abc' })).toBe(false);
    expect(Team({ rules: { points: [25, { fastestLap: 1 }] } })).toBe(true);
    expect(Team({ rules: { points: [25, { fastestLap: 2 }] } })).toBe(false);
    expect(Team({ tyres: [{ soft: 1 }, { soft: 2 }] })).toBe(true);
    expect(Team({ tyres: [{ soft: 1 }, { soft: 1 }] })).toBe(false);
    expect(Team({ mode: { race: 'sprint' } })).toBe(true);
    expect(Team({ mode: { race: 'qualifying' } })).toBe(false);
    expect(Entry('Ferrari')).toBe(true);
    expect(Entry({ name: 'Williams' })).toBe(false);
    expect(Entry.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: '/name', keyword: 'maxLength' })]),
    );
  });
});

describe('ajvRuntime', () => {
  it('serves the helpers as ajv names them, and refuses any other module by name', () => {
    const { default: ucs2length } = ajvRuntime('ajv/dist/runtime/ucs2length') as { default: (s: string) => number };
    expect(ucs2length('a😀b')).toBe(3);
    const { default: equal } = ajvRuntime('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean };
    expect(equal([1, { a: Number.NaN }], [1, { a: Number.NaN }])).toBe(true);
    expect(equal({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(() => ajvRuntime('ajv/dist/runtime/uri')).toThrow(/ajv\/dist\/runtime\/uri/);
  });
});
