// The packages the document validators use, in one CommonJS module: `packages.mjs` loads it through `requireBundled`,
// which inlines all of them (a thousand modules) into one cached file. The parser's ruleset and structure function
// come from the same copy of the parser (its CommonJS build, named outright: a bundler would otherwise take the ES
// module build for the parser), so that asyncapi-structure.mjs replaces the parser's own rules.
module.exports = {
  asyncapiParser: require('@asyncapi/parser/cjs/index.js'),
  asyncapiRuleset: require('@asyncapi/parser/cjs/ruleset/ruleset.js'),
  asyncapiDocumentStructure: require('@asyncapi/parser/cjs/ruleset/functions/documentStructure.js'),
  redocly: require('@redocly/openapi-core'),
  // Where Spectral compiles its validator of rulesets: a file of the package that its `exports` do not name, so named
  // by path (the one copy of spectral-core, the parser's). lint-asyncapi.mjs builds the parser without it.
  spectralRulesetValidator: require('../../node_modules/@stoplight/spectral-core/dist/ruleset/validation/ajv.js'),
};
