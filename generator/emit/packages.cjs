// The packages the emitters print TypeScript with, in one CommonJS module: `packages.ts` loads it through
// `requireBundled` (bin/compiled.mjs), which inlines them (ts-morph and its TypeScript, openapi-typescript and its
// Redocly) into one cached file.
const { createRequire } = require('node:module');

const tsMorph = require('ts-morph');

module.exports = {
  tsMorph,
  openapiTypescript: withTypescriptOf(tsMorph, loadTransform),
  withTypescriptOf,
};

/**
 * The parts of openapi-typescript that turn a document into TypeScript nodes and print them (its package root
 * would also load its own Redocly, which casi does not call: types/rest.ts).
 */
function loadTransform() {
  const { scanDiscriminators, resolveRef } = require('openapi-typescript/dist/lib/utils.cjs');
  const { astToString } = require('openapi-typescript/dist/lib/ts.cjs');
  const transformSchema = require('openapi-typescript/dist/transform/index.cjs');
  return { transformSchema, scanDiscriminators, resolveRef, astToString };
}

/**
 * Loads openapi-typescript with the TypeScript that ts-morph bundles standing in for its `require('typescript')`:
 * one compiler loads instead of two (about 0.3 s of start-up each); it only uses the node factory and the printer.
 * The stand-in is in the module cache only while openapi-typescript loads (it requires `typescript` then), so
 * nothing else gets it. (The bundle leaves `typescript` out, so that this works the same there.)
 */
function withTypescriptOf({ ts }, load) {
  const typescriptPath = createRequire(require.resolve('openapi-typescript')).resolve('typescript');
  // Loaded already (by whoever embeds the generator): nothing to save.
  if (require.cache[typescriptPath]) return load();
  const standIn = new module.constructor(typescriptPath);
  standIn.filename = typescriptPath;
  standIn.loaded = true;
  standIn.exports = ts;
  require.cache[typescriptPath] = standIn;
  try {
    return load();
  } finally {
    delete require.cache[typescriptPath];
  }
}
