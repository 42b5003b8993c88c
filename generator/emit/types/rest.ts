/**
 * The REST types: openapi-typescript's transform, run on the checked document as it is. Its `openapiTS()` entry
 * would first lint and bundle the document with its own Redocly (a second lint of what `check` has just passed,
 * and a bundle of a document `load` has bundled already); the output is the same (test/generator/rest-types.test.ts
 * compares the two).
 */
import type * as OpenapiTypescript from 'openapi-typescript';
import type { GlobalContext, OpenAPI3, SchemaObject } from 'openapi-typescript';
import type * as TypeScript from 'typescript';
import { requirePackage } from '../../require-package.js';

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
    transform: REST_TYPE_OPTIONS.transform,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => resolveRef(schema, $ref, { silent: REST_TYPE_OPTIONS.silent }),
  };
  return astToString(transformSchema(schema, ctx));
}
