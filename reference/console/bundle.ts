/** The console page's script: `page/main.ts` and the generated browser client, bundled by esbuild once, on demand. */
import { join } from 'node:path';
import { TOOLKIT_ROOT } from '../../generator/toolkit-root.js';

/** The page's entry module, in the toolkit's sources. */
export const PAGE_ENTRY = join(TOOLKIT_ROOT, 'reference/console/page/main.ts');

/** Builds the bundle on first call and returns the same promise after; a failed build is retried on the next call. */
export function createBundler(entry: string = PAGE_ENTRY): () => Promise<string> {
  let bundle: Promise<string> | undefined;
  return () => {
    bundle ??= build(entry).catch((error: unknown) => {
      bundle = undefined;
      throw error;
    });
    return bundle;
  };
}

async function build(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no output for the console page');
  return output.text;
}
