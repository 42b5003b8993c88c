/** Both document validators, side by side. */
import type { Diagnostic } from '../diagnostics.js';
import { lintAsyncApi } from './lint-asyncapi.js';
import { lintOpenApi } from './lint-openapi.js';

/** Lints both documents; the OpenAPI diagnostics come first. */
export async function lintSpecs(openapiFile: string, asyncapiFile: string): Promise<Diagnostic[]> {
  const found = await Promise.all([lintOpenApi(openapiFile), lintAsyncApi(asyncapiFile)]);
  return found.flat();
}
