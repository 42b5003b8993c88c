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
    openapiFile === undefined ? [] : import('./lint-openapi.js').then((m) => m.lintOpenApi(openapiFile, rules)),
    asyncapiFile === undefined
      ? []
      : rules === 'structure'
        ? import('./asyncapi-structure.js').then((m) => m.lintAsyncApiStructure(asyncapiFile))
        : import('./lint-asyncapi.js').then((m) => m.lintAsyncApi(asyncapiFile)),
  ]);
  return found.flat();
}
