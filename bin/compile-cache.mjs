// A V8 code cache for the CommonJS modules `casi` loads from node_modules (the bundles bin/compiled.mjs makes of
// ts-morph and its TypeScript, openapi-typescript, ajv, Redocly and the AsyncAPI parser, and any other module: tens
// of megabytes of JavaScript that every start would parse and compile again), kept under
// node_modules/.cache/casi/v8. Node 22 has this built in (`module.enableCompileCache()`); on Node 20 the CommonJS
// loader's compile step is wrapped the same way. A module is compiled with its cached code when there is some for
// its exact text; the code V8 compiled while the command ran is stored when the thread exits. Anything
// unusual (ES module syntax, an unreadable or rejected cache) takes Node's own path. CASI_CACHE=0 turns it off.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MODULES = join(ROOT, 'node_modules');
const BUNDLES = join(NODE_MODULES, '.cache', 'casi');
const CACHE = join(BUNDLES, 'v8', `${process.version}-${process.arch}`);

/** Scripts compiled in this thread without usable cached code: their code is stored by `flushCompileCache`. */
const fresh = [];
/** How many modules this thread compiled from cached code, and without. */
export const compileCacheStats = { cached: 0, compiled: 0 };

/**
 * Installs the code cache for this thread (once); a no-op where Node has its own or CASI_CACHE=0. The main thread
 * stores what it compiled when it exits; a worker, which may be terminated, calls `flushCompileCache` itself.
 */
export function enableCompileCache({ storeOnExit = true } = {}) {
  if (process.env.CASI_CACHE === '0' || typeof Module.enableCompileCache === 'function') return;
  const original = Module.prototype._compile;
  if (original.casiCompileCache) return;
  const compile = function (content, filename) {
    if (!filename.startsWith(NODE_MODULES) || (!filename.endsWith('.js') && !filename.endsWith('.cjs'))) {
      return original.call(this, content, filename);
    }
    const file = join(
      CACHE,
      `${createHash('sha1').update(filename).update('\0').update(identity(filename, content)).digest('hex')}.bin`,
    );
    let cachedData;
    try {
      cachedData = readFileSync(file);
    } catch {
      // Not cached yet.
    }
    let script;
    try {
      script = new Script(Module.wrap(content), { filename, cachedData });
    } catch {
      // Not CommonJS (Node 20 loads ES module syntax from here too): Node's own path sorts it out.
      return original.call(this, content, filename);
    }
    if (cachedData === undefined || script.cachedDataRejected) {
      fresh.push({ file, script });
      compileCacheStats.compiled++;
    } else {
      compileCacheStats.cached++;
    }
    const require = makeRequire(this);
    return script
      .runInThisContext({ displayErrors: true })
      .call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  compile.casiCompileCache = true;
  Module.prototype._compile = compile;
  if (storeOnExit) process.once('exit', flushCompileCache);
}

/**
 * What identifies a module's text besides its path: the text itself, but for the bundles bin/compiled.mjs writes,
 * which are never rewritten (each build has a folder of its own), so their length will do: hashing megabytes of
 * bundle on every start would cost more than it guards.
 */
function identity(filename, content) {
  return filename.startsWith(BUNDLES) ? String(content.length) : content;
}

/** The `require` a module gets from Node: relative to it, with `resolve`, `main`, `cache` and `extensions`. */
function makeRequire(module) {
  const base = createRequire(module.filename);
  const require = (id) => module.require(id);
  require.resolve = base.resolve;
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** Writes the code V8 holds now for each fresh script; a cache that cannot be written only costs time. */
export function flushCompileCache() {
  const scripts = fresh.splice(0);
  if (scripts.length === 0) return;
  try {
    mkdirSync(CACHE, { recursive: true });
    const suffix = `${process.pid}.${randomBytes(4).toString('hex')}`;
    for (const { file, script } of scripts) {
      writeFileSync(`${file}.${suffix}`, script.createCachedData());
      renameSync(`${file}.${suffix}`, file);
    }
  } catch {
    // Next time, then.
  }
}
