/**
 * Property: any small, valid OpenAPI document (odd names, every method, every parameter place and style, nested,
 * recursive and union schemas, several media types) passes the check and generates a package that compiles under
 * tsc --strict. fast-check makes the documents and shrinks a failing one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hasErrors } from '../../generator/check/index.js';
import { formatDiagnostic, InputError } from '../../generator/diagnostics.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { compileStrict } from './compile-strict.js';
import { ROOT } from './helpers.js';
import { name, schema, segment } from './random-documents.js';

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'any-spec-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** A parameter of `place`, with a style the specification allows there. */
function parameter(place: 'query' | 'header' | 'cookie'): fc.Arbitrary<object> {
  const styles = {
    query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
    header: ['simple'],
    cookie: ['form'],
  };
  return fc.record({
    name: segment,
    in: fc.constant(place),
    required: fc.boolean(),
    style: fc.constantFrom(...styles[place]),
    explode: fc.boolean(),
    schema: fc.constantFrom(
      { type: 'string' },
      { type: 'integer' },
      { type: 'array', items: { type: 'string' } },
      { type: 'object', properties: { a: { type: 'string' } } },
    ),
  });
}

const MEDIA = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
  'text/plain',
];

/** A whole document: components, then paths whose operations use them. */
const document = fc
  .tuple(fc.uniqueArray(name, { minLength: 1, maxLength: 4 }), fc.constantFrom('3.0.3', '3.1.0'))
  .chain(([components, version]) =>
    fc.record({
      openapi: fc.constant(version),
      info: fc.record({ title: name, version: fc.constant('1.0.0') }),
      components: fc.record({
        schemas: fc
          .tuple(...components.map(() => schema(components, version)))
          .map((schemas) => Object.fromEntries(components.map((c, i) => [c, schemas[i]]))),
      }),
      paths: fc
        .uniqueArray(
          fc.array(
            fc.oneof(
              segment,
              segment.map((s) => `{${s}}`),
            ),
            { minLength: 1, maxLength: 3 },
          ),
          {
            minLength: 1,
            maxLength: 3,
            selector: (segments) => segments.join('/').replace(/\{[^}]*\}/g, '{}'),
          },
        )
        .filter((paths) => paths.every((segments) => new Set(segments).size === segments.length))
        .chain((paths) =>
          fc
            .tuple(
              ...paths.map((segments) =>
                fc.dictionary(fc.constantFrom(...METHODS), operation(segments, components, version), {
                  minKeys: 1,
                  maxKeys: 3,
                }),
              ),
            )
            .map((items) => Object.fromEntries(paths.map((segments, i) => [`/${segments.join('/')}`, items[i]]))),
        ),
    }),
  );

/** One operation on a path of `segments`: its path parameters, others, maybe a body, responses. */
function operation(segments: readonly string[], components: readonly string[], version: string): fc.Arbitrary<object> {
  const pathParams = segments
    .filter((s) => s.startsWith('{'))
    .map((s) => ({ name: s.slice(1, -1), in: 'path', required: true, schema: { type: 'integer' } }));
  const content = fc.constantFrom(...MEDIA).chain((type) =>
    schema(components, version).map((s) => ({
      [type]: { schema: type.startsWith('application/json') ? s : { type: 'object' } },
    })),
  );
  return fc.record(
    {
      operationId: name,
      tags: fc.array(name, { maxLength: 1 }),
      summary: name,
      parameters: fc
        .array(fc.oneof(parameter('query'), parameter('header'), parameter('cookie')), { maxLength: 3 })
        .map((others) => [
          ...pathParams,
          ...others.filter(
            (p, i) =>
              others.findIndex(
                (q) =>
                  JSON.stringify([(q as { name: string; in: string }).name, (q as { in: string }).in]) ===
                  JSON.stringify([(p as { name: string }).name, (p as { in: string }).in]),
              ) === i,
          ),
        ]),
      requestBody: fc.record({ required: fc.boolean(), content }),
      responses: fc.record({
        '200': fc.record({ description: fc.constant('ok'), content }),
        default: fc.constant({ description: 'error' }),
      }),
    },
    { requiredKeys: ['parameters', 'responses'] },
  );
}

describe('any small OpenAPI document', () => {
  it('passes the check, generates, and compiles under strict', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const dir = join(work, `run-${run++}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
        const options = resolveOptions({ openapi: join(dir, 'openapi.json'), out: join(dir, 'out') });
        const generated = await generate(options).catch((error: unknown) => error);
        const shown = generated instanceof InputError ? generated.diagnostics : [];
        expect(generated, shown.map((d) => formatDiagnostic(d)).join('\n')).not.toBeInstanceOf(Error);
        const { files, diagnostics } = generated as Awaited<ReturnType<typeof generate>>;
        expect(hasErrors(diagnostics)).toBe(false);
        await writeOutput(options.out, files);
      }),
      { numRuns: 6, seed: 20261126, endOnFailure: true },
    );
    // Every run's package in one program: a problem names its run-N/out/ folder, beside that run's openapi.json.
    expect(run).toBe(6);
    expect(compileStrict(work, ['run-*/out/src/**/*.ts'])).toEqual([]);
  }, 300_000);
});
