// The packages the document validators use, in one CommonJS module: `packages.mjs` loads it through `requireBundled`,
// which inlines all of them (a thousand modules) into one cached file. The parser's ruleset and structure function
// come from the same copy of the parser (its CommonJS build, named outright: a bundler would otherwise take the ES
// module build for the parser), so that asyncapi-structure.mjs replaces the parser's own rules.
module.exports = {
  asyncapiParser: require('@asyncapi/parser/cjs/index.js'),
  asyncapiRuleset: require('@asyncapi/parser/cjs/ruleset/ruleset.js'),
  asyncapiDocumentStructure: require('@asyncapi/parser/cjs/ruleset/functions/documentStructure.js'),
  redocly: require('@redocly/openapi-core'),
  spectralRulesetValidator: spectralRulesetValidator(),
};

/**
 * Where Spectral compiles its validator of rulesets (lint-asyncapi.mjs builds the parser without it): a file of
 * spectral-core that the package's `exports` do not name, so named by path, in the one copy the parser uses. In
 * another layout of `node_modules` there is none, and the parser validates its rulesets itself.
 */
function spectralRulesetValidator() {
  try {
    return require('../../node_modules/@stoplight/spectral-core/dist/ruleset/validation/ajv.js');
  } catch {
    return undefined;
  }
}
