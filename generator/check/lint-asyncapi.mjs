// @asyncapi/parser's validation of the AsyncAPI document, in plain JavaScript so that a worker thread runs it
// without a TypeScript loader. Returns diagnostics (see ../diagnostics.ts).
import { structureRules } from './asyncapi-structure.mjs';
import { packages } from './packages.mjs';

const { fromFile, Parser } = packages.asyncapiParser;

/** The least severe of the parser's findings that is reported: warnings (errors are 0, hints 3). */
const REPORTED = 1;

/**
 * Validates the AsyncAPI document (and the OpenAPI schemas it references) with the parser's rules. Its errors
 * (severity 0) are errors, its warnings (1) are warnings, hints are dropped. A diagnostic the parser gives no range
 * for has line 0: the caller places it by its pointer. (`validate`, not `parse`: the same findings, without the
 * document model that `parse` goes on to build and nothing here reads.)
 */
export async function lintAsyncApi(file) {
  return asDiagnostics(file, await fromFile(checkParser(), file).validate());
}

/**
 * The parser with the fast path of the structure rules (unless CASI_CACHE=0), without the rules whose findings are
 * dropped (hints and infos: they would run for nothing), and built without Spectral's validation of its rulesets.
 * That validation compiles a schema of Spectral's rule format with ajv in every process (about 0.1 s) to check
 * rulesets that here are always the same: the parser's own and `structureRules()`; a test holds them to it.
 */
export function checkParser() {
  const options = process.env.CASI_CACHE === '0' ? {} : structureRules();
  const parser = withoutRulesetValidation(() => new Parser(options));
  for (const rule of Object.values(parser.spectral.ruleset.rules)) {
    if (rule.severity > REPORTED) rule.enabled = false;
  }
  return parser;
}

/** `build()`, while Spectral's validation of rulesets accepts anything (where it can be reached, see packages.cjs). */
function withoutRulesetValidation(build) {
  const validation = packages.spectralRulesetValidator;
  const createValidator = validation?.createValidator;
  if (typeof createValidator !== 'function') return build();
  validation.createValidator = () => () => true;
  try {
    return build();
  } finally {
    validation.createValidator = createValidator;
  }
}

/** The parser's findings as diagnostics. */
export function asDiagnostics(file, diagnostics) {
  return diagnostics
    .filter((d) => d.severity <= REPORTED)
    .map((d) => ({
      severity: d.severity === 0 ? 'error' : 'warning',
      file: d.source && d.source !== file && !d.source.startsWith('/') ? file : (d.source ?? file),
      line: d.range?.start ? d.range.start.line + 1 : 0,
      column: d.range?.start ? d.range.start.character + 1 : 0,
      pointer: pointerOf(d.path),
      message: d.message,
      rule: `asyncapi/${String(d.code)}`,
    }));
}

/** Joins path segments into an RFC 6901 pointer. */
function pointerOf(path) {
  return path.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
