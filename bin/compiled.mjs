// Imports a TypeScript entry point as an esbuild bundle kept under node_modules/.cache/casi/: the first start
// compiles it (a fraction of a second); later starts load plain JavaScript, without a TypeScript loader in the
// process. The bundle is rebuilt when any file it was built from changes (size or modification time), and a build
// that cannot be made or stored falls back to tsx. CASI_CACHE=0 always uses tsx.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'casi');
/** Builds older than this, and not current, are removed (a process may still be loading chunks of a newer one). */
const STALE_MS = 10 * 60_000;

/** Imports `entry` (a path relative to the package root) from its cached bundle, building it when stale. */
export async function importCompiled(entry) {
  if (process.env.CASI_CACHE === '0') return importWithTsx(entry);
  const name = entry.replace(/[^a-z0-9]+/gi, '-');
  const manifestFile = join(CACHE, `${name}.json`);
  const key = `${process.version} ${entry}`;
  const current = readManifest(manifestFile, key);
  if (current) return import(pathToFileURL(join(CACHE, current.out)).href);
  let built;
  try {
    built = await build(entry, name, key);
    writeAtomically(manifestFile, JSON.stringify(built));
  } catch {
    return importWithTsx(entry);
  }
  try {
    prune(name, built.out);
  } catch {
    // Old builds left behind only take space.
  }
  return import(pathToFileURL(join(CACHE, built.out)).href);
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

/** Bundles `entry` with code splitting into a fresh folder; `import.meta.url` keeps each source file's own URL. */
async function build(entry, name, key) {
  const { build: esbuild } = await import('esbuild');
  const folder = `${name}-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outdir: join(CACHE, folder),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    plugins: [keepModuleUrls],
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) => {
    const stat = statSync(join(ROOT, path));
    return { path, size: stat.size, mtimeMs: stat.mtimeMs };
  });
  const [out] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === entry) ?? [];
  if (!out) throw new Error(`esbuild wrote no output for ${entry}`);
  return { key, out: relative(CACHE, join(ROOT, out)), inputs };
}

/** Replaces `import.meta.url`, `.dirname` and `.filename` in every source file with that file's own values. */
const keepModuleUrls = {
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

function writeAtomically(file, text) {
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
