import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

// bin/compile-cache.mjs keeps V8's code for CommonJS modules under node_modules; here, for a package of its own,
// at a path no earlier run used (the cache outlives the package, and a process id comes back in a later run).
const pkg = join(ROOT, 'node_modules', `.casi-compile-cache-test-${process.pid}-${Date.now()}`);
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** Loads the package in a fresh process with the cache on; prints its exports and the cache's counts. */
function load(env: Record<string, string> = {}): { exports: unknown; stats: { cached: number; compiled: number } } {
  const cache = pathToFileURL(join(ROOT, 'bin/compile-cache.mjs')).href;
  const script = [
    `const { enableCompileCache, compileCacheStats } = await import(${JSON.stringify(cache)});`,
    'enableCompileCache();',
    "const { createRequire } = await import('node:module');",
    `const exports = createRequire(${JSON.stringify(join(ROOT, 'package.json'))})(${JSON.stringify(pkg)});`,
    'console.log(JSON.stringify({ exports, stats: compileCacheStats }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('V8 code cache for CommonJS modules', () => {
  it('gives modules what Node gives them, and compiles them from cached code in the next process', () => {
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'cc-test', main: 'index.js' }));
    writeFileSync(
      join(pkg, 'index.js'),
      [
        "const part = require('./lib/part.js');",
        'module.exports = {',
        '  part: part.word,',
        "  resolved: require.resolve('./lib/part.js'),",
        '  dirname: __dirname,',
        '  filename: __filename,',
        '  cached: require.cache[__filename] === module,',
        '  esm: require("./lib/esm.js").word,',
        `  salt: ${JSON.stringify(`${Date.now()}`)},`,
        '};',
        '',
      ].join('\n'),
    );
    writeFileSync(join(pkg, 'lib', 'part.js'), "exports.word = 'part';\n");
    // ES module syntax in a .js file of a package without "type": Node 20 loads it; the cache must step aside.
    writeFileSync(join(pkg, 'lib', 'esm.js'), "export const word = 'esm';\n");
    const expected = {
      part: 'part',
      resolved: join(pkg, 'lib', 'part.js'),
      dirname: pkg,
      filename: join(pkg, 'index.js'),
      cached: true,
      esm: 'esm',
    };

    const first = load();
    expect(first.exports).toMatchObject(expected);
    expect(first.stats).toEqual({ cached: 0, compiled: 2 });
    const second = load();
    expect(second.exports).toEqual(first.exports);
    expect(second.stats).toEqual({ cached: 2, compiled: 0 });
    expect(load({ CASI_CACHE: '0' })).toEqual({ exports: first.exports, stats: { cached: 0, compiled: 0 } });
  });
});
