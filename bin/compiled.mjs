// Loads an entry point from an esbuild bundle kept under node_modules/.cache/casi/: a TypeScript entry (the CLI)
// without a TypeScript loader in the process, or a CommonJS entry with the packages it requires inlined (those of
// the generator and of the document validators). The first start builds it (a fraction of a second to a second); a bundle is rebuilt when
// any file it was built from changes (size or modification time), and one that cannot be made or stored falls back
// to tsx, or to the entry as it is. CASI_CACHE=0 always does.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'casi');
/** Builds older than this, and not current, are removed (a process may still be loading chunks of a newer one). */
const STALE_MS = 10 * 60_000;

/** Imports `entry` (a path relative to the package root) from its cached bundle, building it when stale. */
export async function importCompiled(entry) {
  if (process.env.CASI_CACHE === '0') return importWithTsx(entry);
  const out = await cachedBuild(entry, TYPESCRIPT_ENTRY);
  return out === undefined ? importWithTsx(entry) : import(pathToFileURL(out).href);
}

/**
 * Requires `entry` (a CommonJS module relative to the package root that requires packages) from a cached bundle
 * of it with those packages inlined, as one CommonJS file: one file to read, and V8's code cache
 * (compile-cache.mjs) for all of it, instead of resolving, reading and compiling each of a thousand modules (and
 * Node 20 keeps no code cache for ES modules). CASI_CACHE=0, or a bundle that cannot be made, requires it as is.
 */
export async function requireBundled(entry) {
  const require = createRequire(join(ROOT, entry));
  const out = process.env.CASI_CACHE === '0' ? undefined : await cachedBuild(entry, PACKAGES_INLINED);
  return require(out ?? join(ROOT, entry));
}

/**
 * The options of a TypeScript entry's bundle: our code, ES modules split in chunks; the packages stay out but yargs
 * (the CLI's parser, forty ES modules that Node would otherwise resolve, read and compile one by one at every start).
 */
const TYPESCRIPT_ENTRY = {
  splitting: true,
  format: 'esm',
  sourcemap: 'linked',
  plugins: [packagesExternalBut(['yargs']), keepModuleUrls()],
};

/**
 * The options of a bundle of packages: one CommonJS file (ESM builds first: esbuild converts them cleanly), without
 * comments or indentation (a quarter less to read at every start, and to keep in memory). esbuild runs its own
 * binary, and `typescript` is left to load as its own file, or to have a stand-in (see generator/packages.cjs).
 */
const PACKAGES_INLINED = {
  format: 'cjs',
  mainFields: ['module', 'main'],
  outExtension: { '.js': '.cjs' },
  external: ['esbuild', 'typescript'],
  minifyWhitespace: true,
};

/** Bumped when the options of the bundles change, so that bundles built with the old ones are rebuilt. */
const BUNDLE_FORMAT = 2;

/** The path of `entry`'s current bundle, built with `options` when stale; undefined when none can be had. */
async function cachedBuild(entry, options) {
  const name = entry.replace(/[^a-z0-9]+/gi, '-');
  const manifestFile = join(CACHE, `${name}.json`);
  const key = `${process.version} ${entry} ${BUNDLE_FORMAT}`;
  const current = readManifest(manifestFile, key);
  if (current) return join(CACHE, current.out);
  let built;
  try {
    built = await build(entry, name, key, options);
    writeAtomically(manifestFile, JSON.stringify(built));
  } catch {
    return undefined;
  }
  try {
    prune(name, built.out);
  } catch {
    // Old builds left behind only take space.
  }
  return join(CACHE, built.out);
}

/** The manifest of the last build if every input is unchanged since, else undefined. */
function readManifest(file, key) {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.key !== key) return undefined;
    for (const input of manifest.inputs) {
      const stat = statSync(join(ROOT, input.path));
      if (stat.size !== input.size || stat.mtimeMs !== input.mtimeMs) return undefined;
    }
    statSync(join(CACHE, manifest.out));
    return manifest;
  } catch {
    return undefined;
  }
}

/** Bundles `entry` with `options` into a fresh folder, recording every input file for `readManifest`. */
async function build(entry, name, key, options) {
  const { build: esbuild } = await import('esbuild');
  const folder = `${name}-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outdir: join(CACHE, folder),
    bundle: true,
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) => {
    const stat = statSync(join(ROOT, path));
    return { path, size: stat.size, mtimeMs: stat.mtimeMs };
  });
  const [out] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === entry) ?? [];
  if (!out) throw new Error(`esbuild wrote no output for ${entry}`);
  if (options === PACKAGES_INLINED) asciiOnly(join(ROOT, out));
  return { key, out: relative(CACHE, join(ROOT, out)), inputs };
}

/** Leaves every package our code imports out of the bundle but those in `inlined`, bundled with what they import. */
function packagesExternalBut(inlined) {
  return {
    name: 'packages-external-but',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        // Imports of an inlined package's own files, or of its dependencies: bundled with it.
        if (args.importer.includes('/node_modules/')) return undefined;
        const [scope = '', name = ''] = args.path.split('/');
        return inlined.includes(scope.startsWith('@') ? `${scope}/${name}` : scope)
          ? undefined
          : { path: args.path, external: true };
      });
    },
  };
}

/** Replaces `import.meta.url`, `.dirname` and `.filename` in every source file with that file's own values. */
function keepModuleUrls() {
  return {
    name: 'keep-module-urls',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * Rewrites a bundle's non-ASCII characters as `\uXXXX` escapes. esbuild escapes them in strings but not in regular
 * expression literals (where the escape means the same), and one such character anywhere makes V8 hold the whole
 * file, megabytes of it, as a two-byte string, slower to read in and to scan.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

/** Writes `file` through a temporary file renamed over it, so that no reader sees it half written. */
export function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Removes this entry's earlier builds once they are old enough that no process can still be loading them. */
function prune(name, keep) {
  for (const folder of readdirSync(CACHE)) {
    if (!folder.startsWith(`${name}-`) || keep.startsWith(`${folder}/`)) continue;
    const path = join(CACHE, folder);
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

async function importWithTsx(entry) {
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, entry)).href);
}
