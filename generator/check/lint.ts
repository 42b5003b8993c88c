/** Both document validators, side by side. */
import type { Diagnostic } from '../diagnostics.js';
import { lintAsyncApi } from './lint-asyncapi.js';
import { lintOpenApi } from './lint-openapi.js';

/** Lints the documents given; the OpenAPI diagnostics come first. */
export async function lintSpecs(
  openapiFile: string | undefined,
  asyncapiFile: string | undefined,
): Promise<Diagnostic[]> {
  const found = await Promise.all([
    openapiFile === undefined ? [] : lintOpenApi(openapiFile),
    asyncapiFile === undefined ? [] : lintAsyncApi(asyncapiFile),
  ]);
  return found.flat();
}
