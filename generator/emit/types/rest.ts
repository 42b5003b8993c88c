/**
 * The REST types: openapi-typescript's transform, run on the checked document as it is. Its `openapiTS()` entry
 * would first lint and bundle the document with its own Redocly (a second lint of what `check` has just passed,
 * and a bundle of a document `load` has bundled already); the output is the same (test/generator/rest-types.test.ts
 * compares the two).
 */
import type * as OpenapiTypescript from 'openapi-typescript';
import type { GlobalContext, OpenAPI3 } from 'openapi-typescript';
import { requirePackage } from '../../require-package.js';

const { astToString, resolveRef, scanDiscriminators, transformSchema } = requirePackage(
  'openapi-typescript',
) as typeof OpenapiTypescript;

/** The options casi gives openapi-typescript. */
export const REST_TYPE_OPTIONS = {
  alphabetize: true,
  silent: true,
  defaultNonNullable: false,
  emptyObjectsUnknown: true,
} as const;

/** Prints the types of `openapi` (a self-contained OpenAPI 3.1 document; it is not modified). */
export function restTypes(openapi: unknown): string {
  const schema = structuredClone(openapi) as OpenAPI3;
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
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => resolveRef(schema, $ref, { silent: REST_TYPE_OPTIONS.silent }),
  };
  return astToString(transformSchema(schema, ctx));
}
