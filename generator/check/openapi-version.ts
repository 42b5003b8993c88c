/**
 * The OpenAPI version: casi reads 3.0 and 3.1. A Swagger 2.0 document lints without errors (Redocly reads it too)
 * but has no `components` or `content`, so it would generate a client with every type lost: it is an error instead.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { SourceDocument } from '../load/index.js';

/** An error at the version field of an OpenAPI document that is not 3.x, or nothing. */
export function checkOpenApiVersion(openapi: SourceDocument): Diagnostic[] {
  const { openapi: version, swagger } = openapi.value as { openapi?: unknown; swagger?: unknown };
  if (typeof version === 'string' && version.startsWith('3.')) return [];
  const pointer = swagger === undefined ? '/openapi' : '/swagger';
  const found = swagger === undefined ? `openapi: ${String(version)}` : `swagger: ${String(swagger)}`;
  return [
    {
      severity: 'error',
      file: openapi.file,
      ...openapi.locate(pointer),
      pointer,
      message: `casi reads OpenAPI 3.0 and 3.1 documents, and this one is ${found}: convert it to OpenAPI 3 first (for example with swagger2openapi)`,
      rule: 'casi/openapi-version',
    },
  ];
}
