// Benchmark: browser client size, minified + gzipped: an esbuild browser bundle of `createClient` from
// generated/src/client.gen.ts (as shipped, and with the event validators stubbed out), vs openapi-fetch alone.
// Sizes are deterministic, so there is one measurement per bundle. Usage: node bench/bundle-size.mjs
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT, registerTypeScript, writeSection } from './lib.mjs';

const CLIENT = resolve(ROOT, 'generated/src/client.gen.ts');
/** The validators module the generated client imports (e.g. `./validators.events.gen.js`), as a .ts path. */
const importedValidators = /from '\.\/(validators[^']*)\.js'/.exec(readFileSync(CLIENT, 'utf8'))?.[1];
if (importedValidators === undefined) throw new Error('generated/src/client.gen.ts imports no validators module');
const VALIDATORS = resolve(ROOT, 'generated/src', `${importedValidators}.ts`);
/** The generated validator files (wrappers and raw ajv code), in a bundle's inputs. */
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

/** Bundles `contents` (an entry module) for the browser, minified; returns sizes and bytes per input file. */
async function browserBundle(contents, plugins = []) {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins,
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output.inputs).map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }));
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length, inputs };
}

/**
 * What-if (not shipped): ajv standalone code for just the two event validators the client uses, i.e. what the
 * client would carry if the validators module tree-shook per validator.
 */
async function eventValidatorsOnly() {
  await registerTypeScript();
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  const { loadFixtures } = await import('./fixtures.ts');
  const { createAjv, schemaId } = await import('../generator/schema/ajv.ts');
  const { ir } = await loadFixtures(ROOT);
  const ajv = createAjv(ir, { standalone: true });
  return standaloneCode(ajv, {
    validateServerEvent: schemaId('ServerEvent'),
    validateClientEvent: schemaId('ClientEvent'),
  });
}

const clientEntry = `export { createClient } from ${JSON.stringify(CLIENT)};`;
const bundles = {
  openapiFetch: await browserBundle(`export { default as createClient } from 'openapi-fetch';`),
  client: await browserBundle(clientEntry),
  clientNoValidators: await browserBundle(clientEntry, [withoutValidators]),
  validators: await browserBundle(
    `export { validateServerEvent, validateClientEvent } from ${JSON.stringify(VALIDATORS)};`,
  ),
  eventValidatorsOnly: await browserBundle(await eventValidatorsOnly()),
};

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
/** The share of the client bundle's minified bytes that comes from the generated validator files. */
const validatorBytes = bundles.client.inputs
  .filter(({ path }) => VALIDATOR_FILE.test(path))
  .reduce((sum, { bytes }) => sum + bytes, 0);
const row = (tool, b) => ({
  tool,
  median: `${kB(b.gz)} gz`,
  range: `one build (${kB(b.min)} minified)`,
  ratio: `${(b.gz / bundles.openapiFetch.gz).toFixed(2)}×`,
});
const biggest = [...bundles.client.inputs]
  .sort((a, b) => b.bytes - a.bytes)
  .slice(0, 4)
  .map(({ path, bytes }) => `\`${relative(ROOT, resolve(ROOT, path))}\` ${kB(bytes)}`)
  .join(', ');

writeSection('bundle-size', {
  title: 'Browser client size',
  note: [
    'esbuild, `platform: browser`, `format: esm`, minified, then gzip level 9. Entries: `export { createClient }`',
    'from `generated/src/client.gen.ts`; the same with the validators module it imports',
    `(\`${relative(ROOT, VALIDATORS)}\`) replaced by validators that accept everything; openapi-fetch's`,
    '`createClient` alone; and the two event validators the client uses (`validateServerEvent`,',
    '`validateClientEvent`) alone, from that module.',
    `In the shipped client bundle, the validator files are ${kB(validatorBytes)} of ${kB(bundles.client.min)}`,
    `minified (${((100 * validatorBytes) / bundles.client.min).toFixed(0)} %); largest inputs: ${biggest}.`,
    "Ratio: gzipped size over openapi-fetch's.",
  ].join(' '),
  goal: 'generated client ≤ 3× openapi-fetch (minified + gzipped)',
  command: 'node bench/bundle-size.mjs',
  rows: [
    row('openapi-fetch alone', bundles.openapiFetch),
    row('generated client (as shipped, with event validators)', bundles.client),
    row('generated client, validators stubbed out', bundles.clientNoValidators),
    row(`the two event validators alone (\`${importedValidators}.ts\`)`, bundles.validators),
    row('what-if: ajv standalone code of just those two validators', bundles.eventValidatorsOnly),
  ],
});
for (const [name, b] of Object.entries(bundles)) console.log(`${name}: ${kB(b.min)} minified, ${kB(b.gz)} gzipped`);
console.log(`validator files in the client bundle: ${kB(validatorBytes)}`);
