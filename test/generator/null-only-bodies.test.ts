/**
 * A request body member whose only value is `null` (`type: 'null'`, `type: ['null']`, `const: null`, `enum: [null]`,
 * 3.0's `nullable` with no type): the generated client accepts `null` for it, the package compiles with tsc --strict,
 * and the generated server receives the member over loopback.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, serveGenerated, workDirectory } from './generate-alone.js';

const work = workDirectory('null-only-bodies');

/** A POST of `/nulls/<name>` whose JSON body is `body`, answered with the same schema. */
const post = (name: string, body: object) => ({
  [`/nulls/${name}`]: {
    post: {
      operationId: name,
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: { '200': { description: 'the body', content: { 'application/json': { schema: body } } } },
    },
  },
});
const member = (a: object) => ({ type: 'object', properties: { a } });

const openapi31 = {
  openapi: '3.1.0',
  info: { title: 'Nulls', version: '1.0.0' },
  paths: {
    ...post('typeNull', member({ type: 'null' })),
    ...post('typeList', member({ type: ['null'] })),
    ...post('constNull', member({ const: null })),
    ...post('enumNull', member({ enum: [null] })),
    ...post('nested', {
      type: 'object',
      required: ['rows'],
      properties: {
        rows: { type: 'array', items: { type: 'object', required: ['a'], properties: { a: { type: 'null' } } } },
      },
    }),
  },
};
const openapi30 = {
  openapi: '3.0.3',
  info: { title: 'Nulls', version: '1.0.0' },
  paths: {
    ...post('nullableOnly', member({ nullable: true })),
    ...post('nullableEnum', member({ nullable: true, enum: [null] })),
  },
};

/** One document, calls of its generated methods that tsc --strict must accept, and the body each method sends. */
const cases = [
  {
    version: '3.1',
    document: openapi31,
    uses: [
      '  await client.nulls.typeNull({ a: null });',
      '  await client.nulls.typeList({ a: null });',
      '  await client.nulls.constNull({ a: null });',
      '  await client.nulls.enumNull({ a: null });',
      '  await client.nulls.nested({ rows: [{ a: null }] });',
      '  // @ts-expect-error a null-only member is null',
      "  await client.nulls.typeNull({ a: 'x' });",
    ],
    calls: {
      typeNull: { a: null },
      typeList: { a: null },
      constNull: { a: null },
      enumNull: { a: null },
      nested: { rows: [{ a: null }, { a: null }] },
    },
  },
  {
    version: '3.0',
    document: openapi30,
    uses: ['  await client.nulls.nullableOnly({ a: null });', '  await client.nulls.nullableEnum({ a: null });'],
    calls: { nullableOnly: { a: null }, nullableEnum: { a: null } },
  },
];

type NullsClient = { nulls: Record<string, (body: unknown) => Promise<unknown>> };

/** Handlers of `names` that record each body they receive and answer it back. */
function echoing(names: readonly string[], seen: unknown[]): object {
  const answer = (req: { body: unknown }) => {
    seen.push(req.body);
    return { status: 200, body: req.body };
  };
  return Object.fromEntries(names.map((name) => [name, answer]));
}

describe('a request body member whose only value is null', () => {
  it.each(cases)(
    'is accepted by the generated $version client, which compiles with tsc --strict',
    async (c) => {
      const { out, errors, diagnostics } = await generateAlone(work, `compiled-${c.version}`, 'openapi', c.document);
      expect(errors, diagnostics.join('\n')).toBe(false);
      const uses = [
        "import { createClient } from './src/client.gen.js';",
        "const client = createClient({ baseUrl: 'http://127.0.0.1' });",
        'export async function uses(): Promise<void> {',
        ...c.uses,
        '}',
      ];
      writeFileSync(join(out, 'uses.ts'), uses.join('\n'));
      expect(compileStrict(out, ['uses.ts', 'src/**/*.ts'])).toEqual([]);
    },
    120_000,
  );

  it.each(cases)(
    'reaches the generated $version server as sent',
    async (c) => {
      const { out, errors, diagnostics } = await generateAlone(work, `served-${c.version}`, 'openapi', c.document);
      expect(errors, diagnostics.join('\n')).toBe(false);
      const seen: unknown[] = [];
      const handlers = echoing(Object.keys(c.calls), seen);
      const { baseUrl, createClient } = await serveGenerated<NullsClient>(out, handlers);
      const client = createClient({ baseUrl, maxRetries: 0 });

      for (const [name, body] of Object.entries(c.calls)) {
        seen.length = 0;
        expect(await client.nulls[name]?.(body), name).toEqual(body);
        expect(seen, name).toEqual([body]);
      }
    },
    120_000,
  );

  it('is refused by the generated server when it is not null', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'refused', 'openapi', openapi31);
    expect(errors, diagnostics.join('\n')).toBe(false);
    const seen: unknown[] = [];
    const { baseUrl, createClient } = await serveGenerated<NullsClient>(out, echoing(['typeNull'], seen));
    const client = createClient({ baseUrl, maxRetries: 0 });

    await expect(client.nulls.typeNull?.({ a: 'x' })).rejects.toMatchObject({ status: 400 });
    expect(seen).toEqual([]);
  }, 120_000);
});
