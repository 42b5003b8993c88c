/** Loads both specs once and builds an ajv (JSON Schema 2020-12) instance holding every OpenAPI component schema. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The folder holding both specs: `spec/`, or `CASI_SPEC_DIR` (used to run the suite against a mutated copy). */
export const SPEC_DIR = process.env.CASI_SPEC_DIR
  ? resolve(process.env.CASI_SPEC_DIR)
  : fileURLToPath(new URL('../../spec/', import.meta.url));
export const OPENAPI_PATH = join(SPEC_DIR, 'openapi.yaml');
export const ASYNCAPI_PATH = join(SPEC_DIR, 'asyncapi.yaml');

/** The document id of openapi.yaml inside ajv: a component schema is `openapi.json#/components/schemas/X`. */
export const OPENAPI_ID = 'openapi.json';

/** OpenAPI and project keywords that carry no validation meaning; ajv is told about them instead of losing strict mode. */
export const ANNOTATION_KEYWORDS = [
  'example',
  'x-casi-inferred',
  'x-casi-discriminator',
  'x-casi-experimental',
  'x-casi-error-codes',
  'x-casi-sse-data',
] as const;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function loadYaml(path: string): JsonObject {
  const doc: unknown = parse(readFileSync(path, 'utf8'));
  if (!isObject(doc)) throw new Error(`${path}: the document is not a mapping`);
  return doc;
}

export const openapi: JsonObject = loadYaml(OPENAPI_PATH);
export const asyncapi: JsonObject = loadYaml(ASYNCAPI_PATH);

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * Reads `pointer` ('#/a/b' or '/a/b') in `doc`. A `$ref: '#/…'` met on the way (also at the end when `follow` is
 * true) is followed, so pointers may run through referenced responses, parameters and schemas.
 */
export function getAt(doc: JsonObject, pointer: string, follow = true): Json | undefined {
  const path = pointer.replace(/^#/, '');
  const parts = path === '' ? [] : path.slice(1).split('/').map(unescapePointer);
  let node: Json | undefined = doc;
  for (const part of parts) {
    node = derefLocal(doc, node);
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return follow ? derefLocal(doc, node) : node;
}

/** Follows local `$ref`s (`#/…`) until the node is not a reference. */
export function derefLocal(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#')) {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
    seen.add(ref);
    current = getAt(doc, ref, false);
    if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return current;
}

/** The `components.schemas` mapping of openapi.yaml. */
export function componentSchemas(): JsonObject {
  const components = isObject(openapi.components) ? openapi.components : {};
  return isObject(components.schemas) ? components.schemas : {};
}

/** Anything ajv logs while compiling (warnings, errors); a test asserts there is nothing. */
export const ajvWarnings: string[] = [];

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Every strict check on, as errors; JSON Schema 2020-12 union types (`type: [string, 'null']`) are legitimate.
    strict: true,
    allowUnionTypes: true,
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => {
        ajvWarnings.push(args.map(String).join(' '));
      },
      error: (...args: unknown[]) => {
        ajvWarnings.push(args.map(String).join(' '));
      },
    },
  });
  addFormatsModule.default(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });
  // `discriminator` (with its `mapping`, which ajv's own `discriminator: true` option refuses) is an annotation:
  // `oneOf` alone decides, and structure.test.ts checks the mapping against the variants and their tag.
  ajv.addKeyword({
    keyword: 'discriminator',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      required: ['propertyName'],
      properties: {
        propertyName: { type: 'string' },
        mapping: { type: 'object', additionalProperties: { type: 'string' } },
      },
      additionalProperties: false,
    },
  });
  // Each component schema is registered under the key `openapi.json#/components/schemas/<Name>`, which is both
  // what `$ref: 'openapi.json#/components/schemas/<Name>'` looks up and the base its own `#/components/schemas/…`
  // refs resolve against. (Registering the whole document as one schema would make ajv compile its root, whose
  // `components`, `paths`… are unknown keywords in strict mode.)
  for (const [name, schema] of Object.entries(componentSchemas())) {
    ajv.addSchema(schema as object, `${OPENAPI_ID}#/components/schemas/${name}`);
  }
  return ajv;
}

export const ajv: Ajv2020 = createAjv();

const validators = new Map<string, ValidateFunction>();

/** A validator for a `$ref` inside openapi.yaml (`#/components/schemas/X`), compiled once. */
export function validatorForRef(ref: string): ValidateFunction {
  if (!ref.startsWith('#/components/schemas/')) throw new Error(`not a component schema ref: ${ref}`);
  const key = `${OPENAPI_ID}${ref}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: key });
    validators.set(key, validate);
  }
  return validate;
}

/**
 * A validator for a schema written inside openapi.yaml (a media type or parameter `schema`). A plain `$ref` is
 * compiled by reference; an inline schema has its local refs rewritten to `openapi.json#…`.
 */
export function validatorForSchema(schema: Json): ValidateFunction {
  if (isObject(schema) && typeof schema.$ref === 'string' && Object.keys(schema).length === 1) {
    return validatorForRef(schema.$ref);
  }
  const rewritten = rewriteRefs(schema, (ref) => (ref.startsWith('#') ? `${OPENAPI_ID}${ref}` : undefined));
  if (!isObject(rewritten) && typeof rewritten !== 'boolean') throw new Error('a schema is an object or a boolean');
  return ajv.compile(rewritten);
}

/** Deep copy with every `$ref` passed through `map`; a ref that `map` leaves undefined is an error. */
export function rewriteRefs(node: Json, map: (ref: string) => string | undefined): Json {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, map));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const mapped = map(value);
      if (mapped === undefined) throw new Error(`unexpected $ref ${value}`);
      out[key] = mapped;
    } else {
      out[key] = rewriteRefs(value, map);
    }
  }
  return out;
}

/** One line per ajv error: `<instancePath or /> <message> <params>`. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `  ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  /** `paths` or `webhooks`. */
  readonly section: 'paths' | 'webhooks';
  /** The path template (for webhooks, the webhook name). */
  readonly path: string;
  readonly method: string;
  /** JSON pointer of the operation, `#/paths/~1x/get`. */
  readonly pointer: string;
  readonly operation: JsonObject;
  /** Path-item level parameters. */
  readonly pathParameters: Json[];
}

/** Every operation of openapi.yaml, paths first, then webhooks, in document order. */
export function operations(): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    const items = openapi[section];
    if (!isObject(items)) continue;
    for (const [path, rawItem] of Object.entries(items)) {
      const item = derefLocal(openapi, rawItem);
      if (!isObject(item)) continue;
      const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const pointer = `#/${section}/${escapePointer(path)}/${method}`;
        out.push({ section, path, method, pointer, operation, pathParameters });
      }
    }
  }
  return out;
}

/** The parameters that apply to an operation (path-item level and operation level), resolved. */
export function parametersOf(entry: OperationEntry): JsonObject[] {
  const own = Array.isArray(entry.operation.parameters) ? entry.operation.parameters : [];
  const resolved = [...entry.pathParameters, ...own].map((p) => derefLocal(openapi, p));
  return resolved.filter(isObject);
}
