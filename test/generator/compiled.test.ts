import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

// bin/compiled.mjs runs the CLI from a cached bundle; here it runs a small TypeScript entry of its own.
const dir = join(ROOT, 'test-artifacts', `compiled-${process.pid}`);
const entry = `test-artifacts/compiled-${process.pid}/entry.ts`;
const cjsEntry = `test-artifacts/compiled-${process.pid}/entry.cjs`;
const CACHE = join(ROOT, 'node_modules/.cache/casi');
const manifestOf = (path: string) => join(CACHE, `${path.replace(/[^a-z0-9]+/gi, '-')}.json`);
const manifest = manifestOf(entry);

function run(env: Record<string, string> = {}, call = `importCompiled(${JSON.stringify(entry)})`): string {
  const script = `import(${JSON.stringify(pathToFileURL(join(ROOT, 'bin/compiled.mjs')).href)}).then((m) => m.${call})`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // This run's builds and manifests: their names come from the entries' paths, which hold this process's id.
  for (const name of readdirSync(CACHE))
    if (name.startsWith(`test-artifacts-compiled-${process.pid}-`))
      rmSync(join(CACHE, name), { recursive: true, force: true });
});

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

  it('inlines yargs, with the URLs of its own files, and leaves the other packages to node_modules', () => {
    const yargsEntry = `test-artifacts/compiled-${process.pid}/cli.ts`;
    writeFileSync(
      join(ROOT, yargsEntry),
      [
        "import yargs from 'yargs';",
        "import { hideBin } from 'yargs/helpers';",
        "import { version } from 'esbuild';",
        "const argv = yargs(hideBin(['node', 'cli', '--size', '3'])).option('size', { type: 'number' }).parseSync();",
        'console.log(JSON.stringify({ size: argv.size, esbuild: typeof version }));',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(run({}, `importCompiled(${JSON.stringify(yargsEntry)})`))).toEqual({
      size: 3,
      esbuild: 'string',
    });
    const built = JSON.parse(readFileSync(manifestOf(yargsEntry), 'utf8')) as {
      out: string;
      inputs: { path: string }[];
    };
    const inputs = built.inputs.map((i) => i.path);
    expect(inputs.some((p) => p.startsWith('node_modules/yargs/'))).toBe(true);
    expect(inputs.some((p) => p.startsWith('node_modules/esbuild/'))).toBe(false);
    const code = readFileSync(join(CACHE, built.out), 'utf8');
    expect(code).not.toMatch(/from "yargs/);
    expect(code).toMatch(/from "esbuild"/);
    // yargs finds its locale files next to its own modules.
    expect(code).toContain(pathToFileURL(join(ROOT, 'node_modules/yargs')).href);
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

  it('bundles a CommonJS entry with the packages it requires, as one CommonJS file, and rebuilds it on change', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'part.cjs'), "exports.word = 'one';\n");
    writeFileSync(
      join(dir, 'entry.cjs'),
      "const yaml = require('yaml');\nmodule.exports = { word: require('./part.cjs').word, text: yaml.stringify({ a: 1 }), file: __filename };\n",
    );
    const call = (env: Record<string, string> = {}) =>
      JSON.parse(
        run(env, `requireBundled(${JSON.stringify(cjsEntry)})).then((m) => console.log(JSON.stringify(m))`),
      ) as { word: string; text: string; file: string };
    const first = call();
    expect(first.word).toBe('one');
    expect(first.text).toBe('a: 1\n');
    const built = JSON.parse(readFileSync(manifestOf(cjsEntry), 'utf8')) as { out: string; inputs: { path: string }[] };
    // Loaded from the bundle, which holds the package's own modules.
    expect(first.file).toBe(join(CACHE, built.out));
    expect(built.out.endsWith('.cjs')).toBe(true);
    expect(built.inputs.some((i) => i.path.startsWith('node_modules/yaml/'))).toBe(true);
    expect(readFileSync(first.file, 'utf8')).toContain('.word="one"');

    expect(call().file).toBe(first.file);
    writeFileSync(join(dir, 'part.cjs'), "exports.word = 'two';\n");
    const second = call();
    expect(second.word).toBe('two');
    expect(second.file).not.toBe(first.file);

    // CASI_CACHE=0: the entry as it is, and no build.
    const before = readFileSync(manifestOf(cjsEntry), 'utf8');
    writeFileSync(join(dir, 'part.cjs'), "exports.word = 'three';\n");
    const plain = call({ CASI_CACHE: '0' });
    expect(plain).toMatchObject({ word: 'three', file: join(dir, 'entry.cjs') });
    expect(readFileSync(manifestOf(cjsEntry), 'utf8')).toBe(before);
  });

  it('writes a bundle of packages in ASCII alone, its regular expressions meaning the same', () => {
    const asciiEntry = `test-artifacts/compiled-${process.pid}/ascii.cjs`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(ROOT, asciiEntry),
      [
        '// Accents in a comment: café, and in expressions, which esbuild leaves as they are.',
        'const accented = /^pok[eé]mon «\\w+»$/u;',
        'const astral = /^\u{1F600}$/u;',
        "module.exports = { words: ['pokémon «go»', 'pokemon «go»', 'pokxmon «go»'].map((w) => accented.test(w)),",
        "  astral: astral.test('\u{1F600}'), string: 'naïve', file: __filename };",
        '',
      ].join('\n'),
    );
    const loaded = JSON.parse(
      run({}, `requireBundled(${JSON.stringify(asciiEntry)})).then((m) => console.log(JSON.stringify(m))`),
    ) as { words: boolean[]; astral: boolean; string: string; file: string };
    expect(loaded).toMatchObject({ words: [true, true, false], astral: true, string: 'naïve' });
    const code = readFileSync(loaded.file, 'utf8');
    expect(code).not.toMatch(/[\u0080-\uffff]/);
    // No comments or indentation either.
    expect(code).not.toContain('café');
    expect(code).not.toMatch(/^ {2}/m);
  });
});
