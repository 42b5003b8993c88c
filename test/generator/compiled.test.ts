import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

// bin/compiled.mjs runs the CLI from a cached bundle; here it runs a small TypeScript entry of its own.
const dir = join(ROOT, 'test-artifacts', `compiled-${process.pid}`);
const entry = `test-artifacts/compiled-${process.pid}/entry.ts`;
const manifest = join(ROOT, 'node_modules/.cache/casi', `${entry.replace(/[^a-z0-9]+/gi, '-')}.json`);

function run(env: Record<string, string> = {}): string {
  const script = `import(${JSON.stringify(pathToFileURL(join(ROOT, 'bin/compiled.mjs')).href)}).then((m) => m.importCompiled(${JSON.stringify(entry)}))`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compiled entry points', () => {
  it('builds once, reuses the bundle, rebuilds when an input changes, and keeps each module its own URL', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'part.ts'), "export const word: string = 'one';\nexport const where = import.meta.url;\n");
    writeFileSync(
      join(dir, 'entry.ts'),
      "import { where, word } from './part.js';\nconsole.log(JSON.stringify({ word, where }));\n",
    );
    const first = JSON.parse(run()) as { word: string; where: string };
    expect(first).toEqual({ word: 'one', where: pathToFileURL(join(dir, 'part.ts')).href });
    const built = JSON.parse(readFileSync(manifest, 'utf8')) as { out: string; inputs: { path: string }[] };
    expect(built.inputs.map((i) => i.path).sort()).toEqual([entry, entry.replace('entry.ts', 'part.ts')]);

    expect(JSON.parse(run()).word).toBe('one');
    expect(JSON.parse(readFileSync(manifest, 'utf8')).out).toBe(built.out);

    writeFileSync(
      join(dir, 'part.ts'),
      "export const word: string = 'second';\nexport const where = import.meta.url;\n",
    );
    expect(JSON.parse(run()).word).toBe('second');
    expect(JSON.parse(readFileSync(manifest, 'utf8')).out).not.toBe(built.out);
  });

  it('runs the source through tsx with CASI_CACHE=0', () => {
    const before = readFileSync(manifest, 'utf8');
    writeFileSync(
      join(dir, 'part.ts'),
      "export const word: string = 'third word';\nexport const where = import.meta.url;\n",
    );
    expect(JSON.parse(run({ CASI_CACHE: '0' })).word).toBe('third word');
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });
});
