/**
 * A discriminator mapping may name a component schema instead of referencing it (`dog: Dog`, as OpenAPI allows):
 * such a name is read as the reference to that schema, by the check and by the REST types alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('mapping-names');

const member = (extra: object) => ({
  type: 'object',
  required: ['petType'],
  properties: { petType: { type: 'string' }, ...extra },
});

/** A document whose `Pet` union maps its tags with `mapping`. */
function documentWith(mapping: Record<string, string>) {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {},
    components: {
      schemas: {
        Pet: {
          oneOf: ['Cat', 'Dog', 'v1.Bird'].map((name) => ({ $ref: `#/components/schemas/${name}` })),
          discriminator: { propertyName: 'petType', mapping },
        },
        Cat: member({ lives: { type: 'integer' } }),
        Dog: member({ barks: { type: 'boolean' } }),
        'v1.Bird': member({ sings: { type: 'boolean' } }),
      },
    },
  };
}

describe('a discriminator mapping that names schemas', () => {
  it('generates, each member tagged as the mapping says, and the output compiles', async () => {
    const mapping = { kitty: 'Cat', doggo: 'Dog', bird: 'v1.Bird' };
    const { out, errors, diagnostics } = await generateAlone(work, 'names', 'openapi', documentWith(mapping));
    expect(errors, diagnostics.join('\n')).toBe(false);
    expect(diagnostics.filter((d) => d.includes('casi/discriminator'))).toEqual([]);
    const types = readFileSync(join(out, 'src/types.gen.ts'), 'utf8');
    for (const tag of Object.keys(mapping)) expect(types).toContain(`petType: "${tag}";`);
    expect(compileStrict(out)).toEqual([]);
  });

  it('is an error at the entry when the name is no component schema', async () => {
    const { errors, diagnostics } = await generateAlone(
      work,
      'ghost',
      'openapi',
      documentWith({ kitty: 'Cat', ghost: 'Ghost' }),
    );
    expect(errors).toBe(true);
    expect(diagnostics.find((d) => d.includes('casi/discriminator'))).toMatch(
      /the mapping of Pet names Ghost, which Pet\.oneOf .* does not list .* at #\/components\/schemas\/Pet\/discriminator\/mapping\/ghost/,
    );
  });
});
