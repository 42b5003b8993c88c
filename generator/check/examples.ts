/**
 * The examples of every OpenAPI media type (request bodies, responses, parameters with `content`), `example` or
 * `examples` (inline or `$ref` to `#/components/examples`), checked against the media type's schema with the ajv
 * setup the generated validators are compiled from: an example the validators would refuse is reported at the
 * member it breaks. Warnings, as in Redocly's `recommended` rules, whose own example rule this replaces. After
 * generation the validators' own compiled schemas are used (`compiledAjv`).
 */

import { issuesFromAjv } from '../../templates/shared/validation.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Ir } from '../ir/model.js';
import { deref, type SourceDocument, valueAt } from '../load/index.js';
import { toPointer } from '../load/source-map.js';
import { compiledAjv, type createAjv, schemaId, toAjvSchema } from '../schema/ajv.js';

type Node = Record<string, unknown>;
type Validate = ReturnType<ReturnType<typeof createAjv>['compile']>;

/** One example to check: its value, where the value is, and the schema it must fit. */
interface Example {
  readonly value: unknown;
  readonly pointer: string;
  readonly schema: unknown;
}

/** Checks every media-type example of `openapi` against its schema; `ir` gives the component schemas. */
export function checkExamples(openapi: SourceDocument, ir: Ir): Diagnostic[] {
  let ajv: ReturnType<typeof createAjv>;
  try {
    ajv = compiledAjv(ir);
  } catch {
    return []; // A schema that is not valid JSON Schema: the document validators report it.
  }
  const validators = new Map<unknown, Validate | undefined>();
  const validatorOf = (schema: unknown): Validate | undefined => {
    if (!validators.has(schema)) validators.set(schema, compile(ajv, schema));
    return validators.get(schema);
  };
  const out: Diagnostic[] = [];
  for (const example of mediaTypeExamples(openapi)) {
    const validate = validatorOf(example.schema);
    if (validate === undefined || validate(example.value)) continue;
    for (const issue of issuesFromAjv(validate.errors)) {
      const pointer = `${example.pointer}${issue.pointer}`;
      out.push({
        severity: 'warning',
        file: openapi.file,
        ...openapi.locate(pointer),
        pointer,
        message: `Example value must conform to the schema: ${issue.message}.`,
        rule: 'casi/valid-example',
      });
    }
  }
  return out;
}

/**
 * The validate function of a media type's schema: a component's own when it is a `$ref` to one, else the schema
 * compiled on its own. A schema ajv cannot compile gives none: generation reports it.
 */
function compile(ajv: ReturnType<typeof createAjv>, schema: unknown): Validate | undefined {
  const name = /^#\/components\/schemas\/([^/]+)$/.exec(String((schema as Node | null)?.$ref ?? ''))?.[1];
  try {
    return name === undefined ? ajv.compile(toAjvSchema(schema) as object) : ajv.getSchema(schemaId(name));
  } catch {
    return undefined;
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
  const { schema } = mediaType;
  if ('example' in mediaType) return [{ value: mediaType.example, pointer: toPointer([...tokens, 'example']), schema }];
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
    return [{ value: example.value, pointer: `${at}/value`, schema }];
  });
}
