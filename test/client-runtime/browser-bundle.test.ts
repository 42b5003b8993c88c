/** The client runtime bundles for browsers (esbuild, platform browser) without Node built-ins. */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * A browser build of `entry` (a file, or `{ contents }`: a module of the page's own), as a page loads it: split into
 * chunks that `import()` loads when first used.
 */
async function browserBuild(entry: string | { contents: string }) {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: process.cwd(), loader: 'ts' as const } }),
    bundle: true,
    splitting: true,
    platform: 'browser',
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  /** The output holding `input` (a path ending so). */
  const chunkOf = (input: string) =>
    Object.keys(outputs).find((out) => Object.keys(outputs[out]?.inputs ?? {}).some((i) => i.endsWith(input)));
  /** The entry chunk and the chunks it imports statically: what a page loads before any `import()`. */
  const initial = new Set<string>();
  const visit = (out: string) => {
    if (initial.has(out)) return;
    initial.add(out);
    for (const imported of (outputs[out] as Metafile['outputs'][string]).imports) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  // The page's own module: every `import()` target is an entry point of the metafile too.
  const entryPoint = typeof entry === 'string' ? entry : '<stdin>';
  visit(Object.keys(outputs).find((out) => outputs[out]?.entryPoint === entryPoint) as string);
  return { result, chunkOf, initial };
}

/** Any import, dynamic import or require of a Node built-in in `code`. */
const NODE_IMPORT = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s*)["'](?:node:)?(?:http|https|net|stream)["']/;

describe('browser bundle', () => {
  it('bundles templates/client/index.ts for the browser', async () => {
    const result = await build({
      entryPoints: ['templates/client/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.startsWith('node:') || /node_modules\/ws\/lib\//.test(path))).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/from ["']node:/);
    expect(code).toContain('globalThis.WebSocket');
  });

  it('bundles the generated client with no Node built-in, its SSE reader in a chunk loaded on the first stream', async () => {
    const { result, chunkOf, initial } = await browserBuild('generated/src/client.gen.ts');
    expect(result.errors).toEqual([]);
    expect(Object.keys(result.metafile.inputs).filter((path) => path.startsWith('node:'))).toEqual([]);
    for (const file of result.outputFiles) expect(file.text).not.toMatch(NODE_IMPORT);
    const reader = chunkOf('runtime/client/sse-reader.ts');
    expect(reader).toBeDefined();
    expect(initial.has(reader as string)).toBe(false);
  });

  it('loads no stream, session or validator code for a REST page (the initial load is the bundle-size goal)', async () => {
    const { result, initial } = await browserBuild('generated/src/client.gen.ts');
    const loaded = [...initial].flatMap((out) => Object.keys(result.metafile.outputs[out]?.inputs ?? {}));
    // Each of these once reached the initial load through a static import or re-export of a value.
    for (const file of [
      'shared/validation.ts',
      'client/reconnect.ts',
      'client/event-ledger.ts',
      'client/websocket.ts',
      'client/event-stream-items.ts',
      'client/observe.ts',
    ]) {
      expect(
        loaded.filter((input) => input.endsWith(`runtime/${file}`)),
        file,
      ).toEqual([]);
    }
    expect(loaded.filter((input) => /validators[^/]*\.gen\.ts$/.test(input))).toEqual([]);
    // Few requests: the shared error classes ride in the chunk of the client's own errors, not in one of their own.
    expect(initial.size).toBeLessThanOrEqual(2);
  });

  it('leaves out the writers of other parameter styles when every parameter is in its default style', async () => {
    const page = (client: string) => ({ contents: `export { createClient } from './${client}';` });
    const loaded = async (client: string) => {
      const { result, initial } = await browserBuild(page(client));
      return [...initial].flatMap((out) => Object.keys(result.metafile.outputs[out]?.inputs ?? {}));
    };
    const own = await loaded('generated/src/client.gen.ts');
    expect(own.filter((input) => input.endsWith('runtime/client/parameter-styles.ts'))).toEqual([]);
    expect(own.filter((input) => input.endsWith('runtime/client/parameter-defaults.ts'))).toHaveLength(1);
  });
});
