/**
 * The REST types: openapi-typescript's transform, run on the checked document as it is. Its `openapiTS()` entry
 * would first lint and bundle the document with its own Redocly (a second lint of what `check` has just passed,
 * and a bundle of a document `load` has bundled already); the output is the same (test/generator/rest-types.test.ts
 * compares the two).
 */
import type * as OpenapiTypescript from 'openapi-typescript';
import type { GlobalContext, OpenAPI3, SchemaObject } from 'openapi-typescript';
import type * as TypeScript from 'typescript';
import { valueAt } from '../../load/refs.js';
import { requirePackage } from '../../require-package.js';
import { hoistPlacedSchemas } from './placed-refs.js';

const { astToString, resolveRef, scanDiscriminators, transformSchema } = requirePackage(
  'openapi-typescript',
) as typeof OpenapiTypescript;
// The TypeScript openapi-typescript itself prints with.
const { factory } = requirePackage('typescript') as typeof TypeScript;

/**
 * Binary data (`format: binary`, or OpenAPI 3.1's `contentMediaType` on a schema with no `type`) as a `Blob`, which
 * is what a client sends in a multipart part and reads from a binary answer; `Blob | null` where null is allowed.
 * openapi-fetch documents this transform.
 */
export function binaryAsBlob(schema: SchemaObject): TypeScript.TypeNode | undefined {
  const raw = schema as Record<string, unknown>;
  const binary =
    raw.format === 'binary' ||
    (typeof raw.contentMediaType === 'string' && raw.type === undefined && raw.contentEncoding === undefined);
  if (!binary) return undefined;
  const blob = factory.createTypeReferenceNode('Blob');
  const nullable = raw.nullable === true || (Array.isArray(raw.type) && raw.type.includes('null'));
  return nullable ? factory.createUnionTypeNode([blob, factory.createLiteralTypeNode(factory.createNull())]) : blob;
}

/** The options casi gives openapi-typescript. */
export const REST_TYPE_OPTIONS = {
  alphabetize: true,
  silent: true,
  defaultNonNullable: false,
  emptyObjectsUnknown: true,
  transform: binaryAsBlob,
} as const;

/** The component sections whose entries openapi-typescript types from their own fields, never from a `$ref`. */
const NON_SCHEMA_COMPONENTS = ['responses', 'parameters', 'requestBodies', 'headers', 'pathItems'] as const;

/**
 * Replaces each entry of those sections that is only a `$ref` (an alias such as `ItemUsagesRequest: {$ref:
 * '#/components/requestBodies/CursorRequest'}`) with a copy of what it names, followed to the end: openapi-typescript
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

/** Prints the types of `openapi` (a self-contained OpenAPI 3.1 document; it is not modified). */
export function restTypes(openapi: unknown): string {
  const document = structuredClone(openapi) as Record<string, unknown>;
  inlineComponentAliases(document);
  hoistPlacedSchemas(document);
  const schema = document as unknown as OpenAPI3;
  // openapiTS()'s defaults for every other option, in the order it sets them.
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: REST_TYPE_OPTIONS.alphabetize,
    arrayLength: false,
    defaultNonNullable: REST_TYPE_OPTIONS.defaultNonNullable,
    discriminators: scanDiscriminators(schema, REST_TYPE_OPTIONS),
    emptyObjectsUnknown: REST_TYPE_OPTIONS.emptyObjectsUnknown,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    // Read only by the lint and bundle skipped here.
    redoc: undefined as never,
    silent: REST_TYPE_OPTIONS.silent,
    inject: undefined,
    transform: REST_TYPE_OPTIONS.transform,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => resolveRef(schema, $ref, { silent: REST_TYPE_OPTIONS.silent }),
  };
  return astToString(transformSchema(schema, ctx));
}
