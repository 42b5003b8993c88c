// Benchmark: browser client size, minified + gzipped: an esbuild browser build of `createClient` from
// generated/src/client.gen.ts with code splitting, as a page loads it: the initial chunk (createClient and REST calls)
// and all chunks (the stream reader, the session and the event validators load with `import()` when used), vs
// openapi-fetch alone. Sizes are deterministic, so there is one measurement per build. Usage: node bench/bundle-size.mjs
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT, writeSection } from './lib.mjs';

const CLIENT = resolve(ROOT, 'generated/src/client.gen.ts');
/** The validators module the generated client imports (e.g. `./validators.events.gen.js`), as a .ts path. */
const importedValidators = /import\('\.\/(validators[^']*)\.js'\)|from '\.\/(validators[^']*)\.js'/
  .exec(readFileSync(CLIENT, 'utf8'))
  ?.slice(1)
  .find(Boolean);
if (importedValidators === undefined) throw new Error('generated/src/client.gen.ts imports no validators module');
const VALIDATORS = resolve(ROOT, 'generated/src', `${importedValidators}.ts`);
/** The generated validator files (wrappers and raw ajv code), in a build's inputs. */
const VALIDATOR_FILE = /validators(\.[a-z]+)*\.gen\.ts$/;

/** Replaces the client's validators module by one whose validators accept everything (the client's API stays). */
const withoutValidators = {
  name: 'without-validators',
  setup(b) {
    b.onResolve({ filter: /validators[^/]*\.gen\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === VALIDATORS
        ? { path: VALIDATORS, namespace: 'no-validators' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-validators' }, () => ({
      contents: [
        'const accept = Object.assign(() => true, { errors: null });',
        'export const validateServerEvent = accept;',
        'export const validateClientEvent = accept;',
      ].join('\n'),
      loader: 'js',
      resolveDir: dirname(VALIDATORS),
    }));
  },
};

/** Serves `contents` as the entry module `entry.ts`. */
const entryModule = (contents) => ({
  name: 'entry',
  setup(b) {
    b.onResolve({ filter: /^entry\.ts$/ }, () => ({ path: 'entry.ts', namespace: 'entry' }));
    b.onLoad({ filter: /.*/, namespace: 'entry' }, () => ({ contents, loader: 'ts', resolveDir: ROOT }));
  },
});

/**
 * Builds `contents` (an entry module) for the browser, minified, with code splitting unless told otherwise (then
 * the `import()`s are inlined into one file). Returns the sizes of the
 * initial load (the entry chunk and the chunks it imports statically) and of all chunks, each chunk gzipped on its
 * own as it is fetched, and the minified bytes per input file over all chunks.
 */
async function browserBundle(contents, plugins = [], { splitting = true } = {}) {
  const result = await build({
    entryPoints: ['entry.ts'],
    bundle: true,
    splitting,
    minify: true,
    platform: 'browser',
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [entryModule(contents), ...plugins],
  });
  const files = new Map(result.outputFiles.map((f) => [relative(ROOT, f.path), f.contents]));
  const size = (paths) =>
    [...paths].reduce(
      (sum, path) => {
        const code = files.get(path);
        return { min: sum.min + code.length, gz: sum.gz + gzipSync(code, { level: 9 }).length };
      },
      { min: 0, gz: 0 },
    );
  const outputs = result.metafile.outputs;
  // The page's own module: every `import()` target is an entry point of the metafile too.
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint === 'entry:entry.ts');
  const initial = new Set();
  const visit = (path) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path].imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entry);
  const inputs = new Map();
  for (const output of Object.values(outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      inputs.set(path, (inputs.get(path) ?? 0) + bytesInOutput);
    }
  }
  return {
    initial: size(initial),
    total: size(files.keys()),
    chunks: files.size,
    inputs: [...inputs].map(([path, bytes]) => ({ path, bytes })),
  };
}

const clientEntry = `export { createClient } from ${JSON.stringify(CLIENT)};`;
const bundles = {
  openapiFetch: await browserBundle(`export { default as createClient } from 'openapi-fetch';`),
  client: await browserBundle(clientEntry),
  clientOneFile: await browserBundle(clientEntry, [], { splitting: false }),
  clientNoValidators: await browserBundle(clientEntry, [withoutValidators]),
  validators: await browserBundle(
    `export { validateServerEvent, validateClientEvent } from ${JSON.stringify(VALIDATORS)};`,
  ),
};

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
/** The minified bytes, over all chunks of the client, that come from the generated validator files. */
const validatorBytes = bundles.client.inputs
  .filter(({ path }) => VALIDATOR_FILE.test(path))
  .reduce((sum, { bytes }) => sum + bytes, 0);
const row = (tool, size, chunks = 1) => ({
  tool,
  median: `${kB(size.gz)} gz`,
  range: `one build (${kB(size.min)} minified${chunks > 1 ? `, ${chunks} chunks` : ''})`,
  ratio: `${(size.gz / bundles.openapiFetch.initial.gz).toFixed(2)}×`,
});
const biggest = [...bundles.client.inputs]
  .sort((a, b) => b.bytes - a.bytes)
  .slice(0, 4)
  .map(({ path, bytes }) => `\`${relative(ROOT, resolve(ROOT, path))}\` ${kB(bytes)}`)
  .join(', ');

writeSection('bundle-size', {
  title: 'Browser client size',
  note: [
    'esbuild, `platform: browser`, `format: esm`, `splitting: true`, minified; each chunk gzipped (level 9) on its own,',
    'as a browser fetches it. Entries: `export { createClient }` from `generated/src/client.gen.ts`; the same with',
    `the validators module it imports (\`${relative(ROOT, VALIDATORS)}\`) replaced by validators that accept`,
    "everything; openapi-fetch's `createClient` alone; and the two event validators the client uses",
    '(`validateServerEvent`, `validateClientEvent`) alone, from that module. The client loads the SSE reader',
    '(eventsource-parser), the WebSocket session and the event validators with `import()` when a stream is iterated',
    'or a session opens: "initial" is what a page loads for `createClient` and REST calls (the entry chunk and the',
    'chunks it imports statically), "all chunks" adds everything a page that streams and opens sessions loads;',
    'a bundler that does not split code gives the one-file row.',
    `Over all chunks, the validator files are ${kB(validatorBytes)} of ${kB(bundles.client.total.min)} minified`,
    `(${((100 * validatorBytes) / bundles.client.total.min).toFixed(0)} %); largest inputs: ${biggest}.`,
    "Ratio: gzipped size over openapi-fetch's.",
  ].join(' '),
  goal: 'generated client ≤ 3× openapi-fetch (minified + gzipped)',
  command: 'node bench/bundle-size.mjs',
  rows: [
    row('openapi-fetch alone', bundles.openapiFetch.initial),
    row('generated client, initial load (`createClient` + REST calls)', bundles.client.initial),
    row(
      'generated client, all chunks (SSE, WebSocket and event validators included)',
      bundles.client.total,
      bundles.client.chunks,
    ),
    row('generated client as one file (no code splitting: the `import()`s inlined)', bundles.clientOneFile.total),
    row(
      'generated client, all chunks, validators stubbed out',
      bundles.clientNoValidators.total,
      bundles.clientNoValidators.chunks,
    ),
    row(`the two event validators alone (\`${importedValidators}.ts\`)`, bundles.validators.total),
  ],
});
for (const [name, b] of Object.entries(bundles)) {
  console.log(
    `${name}: initial ${kB(b.initial.min)} minified, ${kB(b.initial.gz)} gzipped; all ${b.chunks} chunks ${kB(b.total.min)} minified, ${kB(b.total.gz)} gzipped`,
  );
}
console.log(`validator files over all client chunks: ${kB(validatorBytes)}`);
