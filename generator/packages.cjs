// The packages that read the documents and compile their schemas, in one CommonJS module: `packages.ts` loads it
// through `requireBundled` (bin/compiled.mjs), which inlines them into one cached file. One copy of ajv serves the
// compiler, its code generator and standalone code, whose objects must come from the same copy.
module.exports = {
  ajv2020: require('ajv/dist/2020.js'),
  ajvStandalone: require('ajv/dist/standalone/index.js'),
  jsYaml: require('js-yaml'),
  yaml: require('yaml'),
};
