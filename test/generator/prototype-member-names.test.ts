/**
 * Properties named like the members every object inherits (`constructor`, `toString`, `hasOwnProperty`): the
 * validators read them from the value itself, so a value without them is not judged by Object.prototype's functions.
 * Only documents that name such a property pay for the own-property checks.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('prototype-names');

/** A document whose `Team` schema has `properties`, and `required` when `required` is given. */
function documentWith(properties: Record<string, object>, required: string[] = []) {
  return {
    openapi: '3.1.0',
    info: { title: 'Teams', version: '1' },
    paths: {},
    components: { schemas: { Team: { type: 'object', required, properties } } },
  };
}

/** The validator of `Team` generated from `document`, and its raw module's text. */
async function teamValidator(name: string, document: object) {
  const { out, files, errors, diagnostics } = await generateAlone(work, name, 'openapi', document);
  expect(errors, diagnostics.join('\n')).toBe(false);
  const { validators } = (await import(join(out, 'src/validators.gen.ts'))) as {
    validators: { Team: ((value: unknown) => boolean) & { errors: unknown } };
  };
  const raw = files.find((f) => f.path === 'src/validators.raw.gen.ts')?.content ?? '';
  return { validate: validators.Team, raw };
}

describe('properties named like inherited members', () => {
  it('are read from the value: a value without them passes, one with a wrong value does not', async () => {
    const { validate, raw } = await teamValidator(
      'inherited',
      documentWith({
        name: { type: 'string' },
        constructor: { type: 'string' },
        toString: { type: 'integer' },
        hasOwnProperty: { type: 'boolean' },
      }),
    );
    expect(validate({ name: 'Ferrari' })).toBe(true);
    expect(validate({ name: 'Ferrari', constructor: 'Scuderia', toString: 3, hasOwnProperty: true })).toBe(true);
    expect(validate({ constructor: 7 })).toBe(false);
    expect(validate(JSON.parse('{"toString": "three"}'))).toBe(false);
    expect(raw).toMatch(/^const func\d+ = Object\.prototype\.hasOwnProperty;$/m);
  });

  it('a required one is missing when only Object.prototype has it', async () => {
    const { validate } = await teamValidator('required', documentWith({ constructor: {} }, ['constructor']));
    expect(validate({})).toBe(false);
    expect(validate({ constructor: 'Williams' })).toBe(true);
  });

  it('a document without such names keeps the plain property reads', async () => {
    const { validate, raw } = await teamValidator('plain', documentWith({ name: { type: 'string' } }, ['name']));
    expect(validate({ name: 'McLaren' })).toBe(true);
    expect(raw).not.toContain('Object.prototype.hasOwnProperty');
  });
});
