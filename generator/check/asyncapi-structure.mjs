// A fast path for @asyncapi/parser's two structure rules (`asyncapi-document-resolved` and `-unresolved`): they
// validate the whole document against the AsyncAPI meta-schema, which ajv compiles anew in every process (most of
// the parser's time). Here the same schema, compiled by the same ajv with the same options, is kept as standalone
// code under node_modules/.cache/casi/asyncapi: a document it accepts gets no finding from these rules, and for one
// it refuses, the parser's own rule function runs and reports. Plain JavaScript: it runs in the check worker.
import { createRequire } from 'node:module';
import { precompiled } from '../schema/precompiled.mjs';
import { packages } from './packages.mjs';

const RULES = ['asyncapi-document-resolved', 'asyncapi-document-unresolved'];

const fromParser = createRequire(createRequire(import.meta.url).resolve('@asyncapi/parser'));
const { documentStructure, getSchema } = packages.asyncapiDocumentStructure;
/** Resolves as @stoplight/spectral-functions does: its schema function compiles the meta-schema with these. */
const fromSpectral = createRequire(fromParser.resolve('@stoplight/spectral-functions'));

/**
 * Parser options that replace the two structure rules by the fast path; their definitions (message, severity,
 * `given`, options) are the parser's own.
 */
export function structureRules() {
  const { coreRuleset } = packages.asyncapiRuleset;
  const rules = {};
  for (const name of RULES) {
    const rule = coreRuleset.rules[name];
    // biome-ignore lint/suspicious/noThenProperty: Spectral's rule format names a rule's action `then`.
    rules[name] = { ...rule, then: { ...rule.then, function: fastDocumentStructure } };
  }
  return { ruleset: { rules } };
}

/** `documentStructure`, skipped when the precompiled meta-schema accepts the value. */
function fastDocumentStructure(targetVal, options, context) {
  const formats = context.document?.formats;
  const schema = formats ? getSchema(formats, options.resolved) : undefined;
  if (schema !== undefined && verdictOf(schema)(targetVal)) return [];
  return documentStructure(targetVal, options, context);
}

/** Validate functions by schema object (the parser hands out one object per version and resolution). */
const loaded = new WeakMap();

/** The verdict function of `schema`: loaded from the cache, or compiled now and stored for the next process. */
function verdictOf(schema) {
  let validate = loaded.get(schema);
  if (validate === undefined) {
    const key = ['ajv', 'ajv-formats'].map((name) => fromSpectral(`${name}/package.json`).version).join(' ');
    validate = precompiled({ folder: 'asyncapi', key, schema, compile: () => compile(schema), from: fromSpectral });
    loaded.set(schema, validate);
  }
  return validate;
}

/** Compiles `schema` as the schema function's ajv does (spectral-functions/dist/schema/ajv.js). */
function compile(schema) {
  // Required only here: loading ajv costs more than running the cached code.
  const ajvModule = fromSpectral('ajv');
  const Ajv = ajvModule.default ?? ajvModule;
  // Its options but for `allErrors` and the error messages, which do not change the verdict; `code.source` keeps
  // the code for the cache.
  const ajv = new Ajv({
    allErrors: false,
    meta: true,
    strict: false,
    allowUnionTypes: true,
    unicodeRegExp: false,
    logger: false,
    code: { source: true },
  });
  const addFormats = fromSpectral('ajv-formats');
  (addFormats.default ?? addFormats)(ajv);
  // The meta-schemas the AsyncAPI schema refers to that ajv does not hold itself.
  ajv.addSchema(fromSpectral('./schema/draft4.json'));
  ajv.addSchema(fromSpectral('ajv/dist/refs/json-schema-draft-06.json'));
  const standalone = fromSpectral('ajv/dist/standalone');
  return { ajv, validate: ajv.compile(schema), standalone: standalone.default ?? standalone };
}
