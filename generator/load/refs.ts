/** References and pointers: what a `$ref` names, where the `$ref`s of a document are, what each one stands for. */
import { dirname, resolve } from 'node:path';
import { pointerTokens } from './source-map.js';

export type Path = readonly (string | number)[];

/** Returns the value at `pointer` in `root`, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Splits `./other.yaml#/a/b` or `#/a/b` into the file it names (relative to `from`) and the pointer. */
export function splitRef(ref: string, from: string): { file: string; pointer: string } {
  const [path = '', pointer = ''] = ref.split('#');
  return { file: path ? resolve(dirname(from), path) : from, pointer };
}

/** Members whose value is one schema (JSON Schema 2020-12, and AsyncAPI's Multi Format Schema `schema`). */
const SCHEMA_MEMBERS = new Set([
  'schema',
  'items',
  'not',
  'additionalProperties',
  'contains',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Members whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Members whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Where AsyncAPI writes messages, whose `payload` and `headers` are schemas. */
const MESSAGE_HOLDERS = new Set<string | number>(['messages', 'message', 'messageTraits']);

/** Members whose values are data, not descriptions: a `$ref` inside them is just a member of an example. */
const LITERALS = new Set(['example', 'default', 'const', 'enum']);

/** The schema formats casi reads: JSON Schema, and the AsyncAPI and OpenAPI Schema Objects built on it. */
export const JSON_SCHEMA_FORMATS = /^application\/(vnd\.aai\.asyncapi|schema|vnd\.oai\.openapi)(\+json|\+yaml|;|$)/;

/**
 * True when `value`, at `key` of `holder` under the path `path`, is data (an example, a default, an extension), or a
 * schema in another format than JSON Schema (Avro, Protobuf, RAML: the `schema` of an AsyncAPI Multi Format Schema
 * object, or the `payload` of a 2.6 message, beside a `schemaFormat` that names it), whose `$ref`s casi does not
 * follow. A key that names a property, a component or a definition is a name, whatever it spells.
 */
export function isLiteral(holder: object, path: Path, key: string, value: unknown): boolean {
  const parent = path.at(-1);
  if ((typeof parent === 'string' && SCHEMA_MAPS.has(parent)) || path.at(-2) === 'components') return false;
  if (LITERALS.has(key) || key.startsWith('x-') || inOtherFormat(holder, key)) return true;
  if (key === 'examples' && Array.isArray(value)) return true; // JSON Schema and AsyncAPI message examples
  return key === 'value' && path.at(-2) === 'examples'; // an OpenAPI Example object's value
}

/** True when `holder[key]` is a schema in another format than JSON Schema (see `isLiteral`). */
export function inOtherFormat(holder: object, key: string): boolean {
  const format = (holder as { schemaFormat?: unknown }).schemaFormat;
  return (key === 'schema' || key === 'payload') && typeof format === 'string' && !JSON_SCHEMA_FORMATS.test(format);
}

/** True when `value` is a Reference object to another file or a URL. */
export function isForeignRef(value: unknown): boolean {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  return typeof ref === 'string' && !ref.startsWith('#');
}

/**
 * The value a local `$ref` (`#/…`) names, followed a few times, or the value itself; as an object (empty for anything
 * else), for reading members.
 */
export function resolveLocal(root: unknown, value: unknown): Record<string, unknown> {
  const asObject = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  let current = asObject(value);
  for (let hops = 0; hops < 8 && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); hops++) {
    const target = valueAt(root, current.$ref.slice(1));
    if (target === undefined) break;
    current = asObject(target);
  }
  return current;
}

/** True when `pointer` is in a schema written in another format than JSON Schema, in the document `root`. */
export function isInOtherFormat(root: unknown, pointer: string): boolean {
  let node = root;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return false;
    if (inOtherFormat(node, token)) return true;
    node = (node as Record<string, unknown>)[token];
  }
  return false;
}

/** Every string `$ref` in `value`, with the path of the object that holds it. */
export function* refsIn(value: unknown, path: Path = []): Generator<{ ref: string; path: Path }> {
  if (value === null || typeof value !== 'object') return;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') yield { ref, path };
  for (const [key, child] of Object.entries(value)) {
    if (child === null || typeof child !== 'object' || isLiteral(value, path, key, child)) continue;
    yield* refsIn(child, [...path, Array.isArray(value) ? Number(key) : key]);
  }
}

/**
 * True when the value at `path` stands where a schema goes: a component schema, a media type's or parameter's
 * `schema`, a subschema of a schema; in an AsyncAPI document also the `payload` and `headers` of a message (3.x
 * `messages`, 2.6 `message`) or of a message trait.
 */
export function isSchemaPosition(path: Path, asyncapi: boolean): boolean {
  const [last, parent] = [path.at(-1), path.at(-2)];
  if (path.length === 3 && path[0] === 'components' && path[1] === 'schemas') return true;
  if (typeof last === 'number') return typeof parent === 'string' && SCHEMA_LISTS.has(parent);
  if (last === undefined) return false;
  if (SCHEMA_MEMBERS.has(last) || (typeof parent === 'string' && SCHEMA_MAPS.has(parent))) return true;
  return asyncapi && (last === 'payload' || last === 'headers') && path.some((key) => MESSAGE_HOLDERS.has(key));
}
