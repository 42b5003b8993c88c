/**
 * The examples of both documents, checked against their schemas with the ajv setup the generated validators are
 * compiled from (the instance they share with the validators' emitter: `sharedAjv`):
 *
 * - OpenAPI: every media type's (request bodies, responses, parameters with `content`) `example` or `examples`
 *   (inline or `$ref` to `#/components/examples`, reported where the value is), against the media type's schema;
 * - AsyncAPI: every message's (`components/messages`, and messages written inline in a channel) `examples`, each
 *   `payload` against the message's payload schema and each `headers` against its headers schema. Their
 *   `./openapi.yaml#/components/schemas/X` references are the component schemas the validators hold.
 *
 * An example its schema refuses is reported (rule `casi/valid-example`), one per problem, at the member it breaks: an
 * error where the project sets its rules (`strictChecks`), else a warning.
 * An example whose schema is unknown — a media type or message without one, a payload in a schema format that is
 * not JSON Schema, a schema ajv cannot compile — cannot be checked: that is a warning at the example (none for a
 * media type or message that declares no schema, which allows any value).
 */

import { issuesFromAjv } from '../../templates/shared/validation.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Ir } from '../ir/model.js';
import { deref, type LoadedSpecs, type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import { placeOf, toPointer } from '../load/source-map.js';
import { type createAjv, schemaId, sharedAjv, toAjvSchema } from '../schema/ajv.js';

type Node = Record<string, unknown>;
type Ajv = ReturnType<typeof createAjv>;
type Validate = ReturnType<Ajv['compile']>;

/** One example to check: its value, where the value is, and the schema it must fit (or why there is none). */
interface Example {
  readonly value: unknown;
  readonly doc: SourceDocument;
  readonly pointer: string;
  readonly schema: { readonly known: unknown } | { readonly unknown: string };
}

const RULE = 'casi/valid-example';

/** Checks every example of both documents against its schema; `ir` gives the component schemas. */
export function checkExamples(
  specs: Pick<LoadedSpecs, 'openapi' | 'asyncapi'>,
  ir: Ir,
  severity: Diagnostic['severity'],
): Diagnostic[] {
  let ajv: Ajv;
  try {
    ajv = sharedAjv(ir);
  } catch {
    return []; // A schema that is not valid JSON Schema: the document validators report it.
  }
  const validators = new Map<unknown, Validate | string>();
  const validatorOf = (schema: unknown): Validate | string => {
    if (!validators.has(schema)) validators.set(schema, compile(ajv, schema));
    return validators.get(schema) as Validate | string;
  };
  const out: Diagnostic[] = [];
  const at = (example: Example, pointer: string, severity: Diagnostic['severity'], message: string) =>
    out.push({ severity, ...placeOf(example.doc, pointer), message, rule: RULE });
  for (const example of [...mediaTypeExamples(specs.openapi), ...messageExamples(specs.asyncapi)]) {
    const validate = 'known' in example.schema ? validatorOf(example.schema.known) : example.schema.unknown;
    if (typeof validate === 'string') {
      at(example, example.pointer, 'warning', `Example not checked: ${validate}.`);
      continue;
    }
    if (validate(example.value)) continue;
    for (const issue of issuesFromAjv(validate.errors, example.value)) {
      const pointer = `${example.pointer}${issue.pointer}`;
      at(example, pointer, severity, `Example value must conform to the schema: ${issue.message}.`);
    }
  }
  return out;
}

/**
 * The validate function of a schema: a component's own when it is a `$ref` to one, else the schema compiled on its
 * own; or why ajv cannot compile it.
 */
function compile(ajv: Ajv, schema: unknown): Validate | string {
  const name = schemaRefName((schema as Node | null)?.$ref);
  try {
    const lookup = (component: string) => ajv.getSchema(schemaId(component))?.schema;
    const validate =
      name === undefined ? ajv.compile(toAjvSchema(schema, lookup) as object) : ajv.getSchema(schemaId(name));
    return validate ?? `its schema ${name} is unknown`;
  } catch (error) {
    return `its schema cannot be compiled (${(error as Error).message})`;
  }
}

/** Every example of every media type under `paths` and `components`, with a schema to check it against. */
function mediaTypeExamples(openapi: SourceDocument): Example[] {
  const found: Example[] = [];
  const visit = (node: unknown, tokens: string[]): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const parent = tokens[tokens.length - 2];
    if (parent === 'content' && 'schema' in node) found.push(...examplesOf(openapi, node as Node, tokens));
    for (const [key, child] of Object.entries(node)) if (!key.startsWith('x-')) visit(child, [...tokens, key]);
  };
  visit(valueAt(openapi.value, '/paths'), ['paths']);
  visit(valueAt(openapi.value, '/components'), ['components']);
  return found;
}

/** The examples of one media type object (at `tokens`): `example`, or each of `examples` (references followed). */
function examplesOf(openapi: SourceDocument, mediaType: Node, tokens: string[]): Example[] {
  const schema = { known: mediaType.schema };
  const doc = openapi;
  if ('example' in mediaType)
    return [{ value: mediaType.example, doc, pointer: toPointer([...tokens, 'example']), schema }];
  const examples = mediaType.examples;
  if (!examples || typeof examples !== 'object') return [];
  return Object.entries(examples as Node).flatMap(([name, entry]) => {
    const ref = (entry as Node | null)?.$ref;
    const at =
      typeof ref === 'string' && ref.startsWith('#/') ? ref.slice(1) : toPointer([...tokens, 'examples', name]);
    let example: Node | undefined;
    try {
      example = deref<Node | undefined>(openapi, entry);
    } catch {
      return []; // A dangling reference: the validators report it.
    }
    if (!example || typeof example !== 'object' || !('value' in example)) return [];
    return [{ value: example.value, doc, pointer: `${at}/value`, schema }];
  });
}

/**
 * The payload and headers of every example of every message: those of `components/messages` and those written in
 * a channel (a message that is a `$ref` is checked where it is written).
 */
function messageExamples(asyncapi: SourceDocument): Example[] {
  const messages: [string[], Node][] = [];
  const add = (tokens: string[], message: unknown) => {
    if (message && typeof message === 'object' && !('$ref' in message)) messages.push([tokens, message as Node]);
  };
  for (const [name, message] of entries(valueAt(asyncapi.value, '/components/messages')))
    add(['components', 'messages', name], message);
  for (const [channel, value] of entries(valueAt(asyncapi.value, '/channels')))
    for (const [name, message] of entries((value as Node | null)?.messages))
      add(['channels', channel, 'messages', name], message);
  return messages.flatMap(([tokens, message]) => {
    const examples = Array.isArray(message.examples) ? message.examples : [];
    return examples.flatMap((example: unknown, i) =>
      (['payload', 'headers'] as const).flatMap((part): Example[] => {
        if (!example || typeof example !== 'object' || !(part in example) || message[part] === undefined) return [];
        const pointer = toPointer([...tokens, 'examples', i, part]);
        const value = (example as Node)[part];
        return [{ value, doc: asyncapi, pointer, schema: messageSchema(asyncapi, message[part]) }];
      }),
    );
  });
}

/** The members of an object, or none. */
function entries(value: unknown): [string, unknown][] {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

/**
 * A message's payload or headers schema, ready for ajv: a Multi Format Schema Object gives its `schema` when its
 * format is JSON Schema (any draft; the validators read them as 2020-12) or AsyncAPI's own; references within the
 * AsyncAPI document are followed and written in place, those to the OpenAPI document's component schemas stay.
 */
function messageSchema(asyncapi: SourceDocument, declared: unknown): Example['schema'] {
  let schema = declared;
  if (declared && typeof declared === 'object' && 'schemaFormat' in declared) {
    const format = String((declared as Node).schemaFormat);
    if (!/^application\/(schema\+(json|yaml)|vnd\.aai\.asyncapi(\+(json|yaml))?)(;|$)/.test(format))
      return { unknown: `its schema format ${format} is not JSON Schema` };
    schema = (declared as Node).schema;
  }
  try {
    return { known: inlineLocalRefs(asyncapi, schema, []) };
  } catch (error) {
    return { unknown: (error as Error).message };
  }
}

/** Keys whose value is data, not a schema: a `$ref` there is a member of a value. */
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum']);
/** Keys whose value maps names to schemas: every member is a schema, whatever its name. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** `schema` with each `$ref` into its own document (`#/…`) replaced by what it points at. */
function inlineLocalRefs(doc: SourceDocument, schema: unknown, seen: readonly string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineLocalRefs(doc, item, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref: ref, ...rest } = schema as Node;
  const out: Node = {};
  for (const [key, value] of Object.entries(rest)) {
    if (DATA.has(key) || key.startsWith('x-')) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineLocalRefs(doc, v, seen)]));
    else out[key] = inlineLocalRefs(doc, value, seen);
  }
  if (typeof ref !== 'string' || !ref.startsWith('#')) return ref === undefined ? out : { $ref: ref, ...out };
  if (seen.includes(ref)) throw new Error(`its schema refers to itself through ${ref}`);
  const target = valueAt(doc.value, ref.slice(1));
  if (target === undefined) throw new Error(`${ref} points to nothing`);
  const inlined = inlineLocalRefs(doc, target, [...seen, ref]);
  return Object.keys(out).length === 0 ? inlined : { allOf: [inlined], ...out };
}
