/** A client method resolves to the body of whichever 2xx answer arrives, as the runtime reads it. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('success-answers');

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

/** `PUT /things/{id}` answers 200 with the thing replaced, or 201 with a receipt for one created. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Two success answers', version: '1' },
  paths: {
    '/things/{id}': {
      put: {
        operationId: 'putThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'replaced', ...json({ type: 'array', items: { type: 'string' } }) },
          '201': { description: 'created', ...json({ type: 'object', properties: { created: { type: 'boolean' } } }) },
          '204': { description: 'unchanged' },
        },
      },
    },
  },
};

describe('an operation with several 2xx JSON answers', () => {
  it('gives a client method typed with each of their bodies, which compiles strictly', async () => {
    const { out, errors, diagnostics, files } = await generateAlone(work, 'two-answers', 'openapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const client = files.find((f) => f.path === 'src/client.gen.ts')?.content ?? '';
    expect(client).toMatch(/\['200'\]\['content'\]\['application\/json'\] \| [^\n]*\['201'\]\['content'\]/);
    // A caller narrows the answer: both shapes are part of the method's type.
    writeFileSync(
      join(out, 'src/uses-answers.ts'),
      [
        "import { createClient } from './client.gen.js';",
        "const answer = await createClient({ baseUrl: 'http://127.0.0.1:1' }).things.putThing('a');",
        'export const names: string[] | undefined = Array.isArray(answer) ? answer : undefined;',
        'export const created: boolean | undefined = Array.isArray(answer) ? undefined : answer.created;',
      ].join('\n'),
    );
    expect(compileStrict(out)).toEqual([]);
  }, 120_000);
});
