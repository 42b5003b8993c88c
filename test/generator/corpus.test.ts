/**
 * Real API descriptions written elsewhere (`../shared/spec-corpus/`, beside the project): each alone passes the check
 * (warnings allowed) and generates a package whose TypeScript compiles under `strict`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasErrors } from '../../generator/check/index.js';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { compileStrict } from './compile-strict.js';
import { casi, ROOT } from './helpers.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');
const documents = readdirSync(CORPUS)
  .filter((name) => /\.(openapi|asyncapi)\.(ya?ml|json)$/.test(name))
  .sort();

// Under the project, so that the generated code resolves the project's packages (fastify, ws, openapi-fetch, …).
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the corpus of real API descriptions', () => {
  it('has the fourteen documents of its manifest', () => {
    expect(documents).toHaveLength(14);
  });

  it.each(documents)(
    '%s alone passes the check and generates',
    async (name) => {
      const file = join(CORPUS, name);
      const kind = name.includes('.openapi.') ? 'openapi' : 'asyncapi';
      const options = resolveOptions({ [kind]: file, out: join(work, name.replace(/\..*$/, '')) });
      const { files, diagnostics } = await generate(options);
      expect(hasErrors(diagnostics), diagnostics.map((d) => formatDiagnostic(d)).join('\n')).toBe(false);
      await writeOutput(options.out, files);
      expect(files.some((f) => f.path === 'src/client.gen.ts')).toBe(true);
    },
    60_000,
  );

  it('gives packages that all compile with tsc --strict', () => {
    expect(compileStrict(work, ['*/src/**/*.ts'])).toEqual([]);
  }, 180_000);

  it('passes `casi check` from the command line, one document alone (exit 0, warnings allowed)', async () => {
    const result = await casi(['check', '--openapi', join(CORPUS, 'petstore-expanded.openapi.json')]);
    expect(result.stdout).toMatch(/petstore-expanded\.openapi\.json: 0 error\(s\), \d+ warning\(s\)/);
    expect(result.code).toBe(0);
  });
});
