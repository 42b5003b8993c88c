/** Both document validators, side by side; each is loaded only when its document is given. */
import type { Diagnostic } from '../diagnostics.js';

/** Lints the documents given; the OpenAPI diagnostics come first. */
export async function lintSpecs(
  openapiFile: string | undefined,
  asyncapiFile: string | undefined,
): Promise<Diagnostic[]> {
  const found = await Promise.all([
    openapiFile === undefined ? [] : import('./lint-openapi.js').then((m) => m.lintOpenApi(openapiFile)),
    asyncapiFile === undefined ? [] : import('./lint-asyncapi.js').then((m) => m.lintAsyncApi(asyncapiFile)),
  ]);
  return found.flat();
}
