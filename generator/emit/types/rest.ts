/**
 * The REST types: `paths`, `operations` and `components` of the checked document, in openapi-typescript's shape (the
 * types openapi-fetch's helpers read), printed with ts-morph's TypeScript (rest/document.ts).
 */
import { valueAt } from '../../load/refs.js';
import { printRestTypes } from './rest/document.js';

/** The component sections whose entries openapi-typescript types from their own fields, never from a `$ref`. */
const NON_SCHEMA_COMPONENTS = ['responses', 'parameters', 'requestBodies', 'headers', 'pathItems'] as const;

/**
 * Replaces each entry of those sections that is only a `$ref` (an alias such as `ItemUsagesRequest: {$ref:
 * '#/components/requestBodies/CursorRequest'}`) with a copy of what it names, followed to the end: the REST types
 * would type the alias as a body with no content, and every operation using it would lose its types.
 */
function inlineComponentAliases(document: Record<string, unknown>): void {
  const components = document.components as Record<string, Record<string, unknown> | undefined> | undefined;
  for (const section of NON_SCHEMA_COMPONENTS) {
    const entries = components?.[section];
    if (entries === undefined || entries === null || typeof entries !== 'object') continue;
    for (const name of Object.keys(entries)) {
      const seen = new Set<unknown>();
      let target = entries[name];
      while (isLocalRef(target) && !seen.has(target)) {
        seen.add(target);
        target = valueAt(document, target.$ref);
      }
      if (target !== entries[name] && target !== undefined && !isLocalRef(target)) {
        entries[name] = structuredClone(target);
      }
    }
  }
}

function isLocalRef(value: unknown): value is { $ref: string } {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#');
}

/**
 * Prints the types of `openapi` (a self-contained OpenAPI 3.x document whose schema references name component
 * schemas, as the load stage leaves it; it is not modified).
 */
export function restTypes(openapi: unknown): string {
  const document = structuredClone(openapi) as Record<string, unknown>;
  inlineComponentAliases(document);
  return printRestTypes(document);
}
