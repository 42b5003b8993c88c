/** Both document validators, side by side; each is loaded only when its document is given. */
import type { Diagnostic } from '../diagnostics.js';

/**
 * Which rules the linters run: `style` is everything `casi check` reports (Redocly's `recommended` set or the
 * project's `redocly.yaml`, the AsyncAPI parser's whole ruleset); `structure` only what generation needs: each
 * document valid against its specification, its references resolved (for AsyncAPI, asyncapi-structure.ts).
 */
export type LintRules = 'style' | 'structure';

/** Lints the documents given; the OpenAPI diagnostics come first. */
export async function lintSpecs(
  openapiFile: string | undefined,
  asyncapiFile: string | undefined,
  rules: LintRules = 'style',
): Promise<Diagnostic[]> {
  const found = await Promise.all([
    openapiFile === undefined ? [] : lintOpenApiFile(openapiFile, rules),
    asyncapiFile === undefined
      ? []
      : rules === 'structure'
        ? import('./asyncapi-structure.js').then((m) => m.lintAsyncApiStructure(asyncapiFile))
        : import('./lint-asyncapi.js').then((m) => m.lintAsyncApi(asyncapiFile)),
  ]);
  return found.flat();
}

/** The OpenAPI structure check, and with `style` Redocly's rules. */
async function lintOpenApiFile(file: string, rules: LintRules): Promise<Diagnostic[]> {
  const structure = import('./openapi-structure.js').then((m) => m.lintOpenApiStructure(file));
  if (rules === 'structure') return structure;
  const style = import('./lint-openapi.js').then((m) => m.lintOpenApi(file));
  const [found, styled] = await Promise.all([structure, style]);
  // A document that is not OpenAPI at all is reported by both, once.
  return [...found, ...styled.filter((d) => !found.some((f) => f.rule === d.rule && f.message === d.message))];
}
