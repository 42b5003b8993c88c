// @asyncapi/parser's validation of the AsyncAPI document, in plain JavaScript so that a worker thread runs it
// without a TypeScript loader. Returns diagnostics (see ../diagnostics.ts).
import { structureRules } from './asyncapi-structure.mjs';
import { packages } from './packages.mjs';

const { fromFile, Parser } = packages.asyncapiParser;

/**
 * Validates the AsyncAPI document (and the OpenAPI schemas it references) with the parser's rules. Its errors
 * (severity 0) are errors, its warnings (1) are warnings, hints are dropped. A diagnostic the parser gives no range
 * for has line 0: the caller places it by its pointer. (`validate`, not `parse`: the same findings, without the
 * document model that `parse` goes on to build and nothing here reads.)
 */
export async function lintAsyncApi(file) {
  const parser = new Parser(process.env.CASI_CACHE === '0' ? {} : structureRules());
  const diagnostics = await fromFile(parser, file).validate();
  return diagnostics
    .filter((d) => d.severity <= 1)
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
