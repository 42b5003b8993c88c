/**
 * Compiles the toolkit's TypeScript to `dist/` with esbuild, one `.js` per `.ts` (no bundling): the CLI, the
 * reference server, the conformance checks and the generated package they run on. `npm install` runs it (`prepare`); so do `npm start` and the
 * test setup, so that `dist/` always matches the sources. Type-checking is tsc's job (`npm test`).
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The toolkit's root folder (this file is in `scripts/`). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folders whose TypeScript the CLI loads at run time. */
const SOURCES = ['generator', 'reference', 'templates', 'generated/src', 'conformance'];

/** Empties `dist/` and compiles every source file into it, keeping the folder layout. */
export async function buildToolkit(root: string = ROOT): Promise<void> {
  const outdir = join(root, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: SOURCES.map((folder) => `${folder}/**/*.ts`),
    outdir,
    outbase: '.',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildToolkit();
