// Both document validators, side by side: used by the check worker and, loaded on demand, by `checkSpecs`.
import { lintAsyncApi } from './lint-asyncapi.mjs';
import { lintOpenApi } from './lint-openapi.mjs';

/** Lints both documents; the OpenAPI diagnostics come first. */
export async function lintSpecs(openapiFile, asyncapiFile) {
  const found = await Promise.all([lintOpenApi(openapiFile), lintAsyncApi(asyncapiFile)]);
  return found.flat();
}
