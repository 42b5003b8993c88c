/**
 * Reference checks: the OpenAPI document is self-contained (every `$ref` local), and the AsyncAPI document refers
 * only to itself and to that OpenAPI document. The emitters read the two documents as they are, without bundling.
 */
import { dirname, relative } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { type SourceDocument, splitRef } from '../load/index.js';
import { toPointer } from '../load/source-map.js';

/** One error per `$ref` that points to a file other than the two documents allowed. */
export function checkReferences(openapi: SourceDocument, asyncapi: SourceDocument): Diagnostic[] {
  return [
    ...foreignRefs(openapi, [openapi.file], 'the OpenAPI document must be self-contained'),
    ...foreignRefs(
      asyncapi,
      [asyncapi.file, openapi.file],
      `the AsyncAPI document may refer only to itself and to the OpenAPI document (${relative(dirname(asyncapi.file), openapi.file)})`,
    ),
  ];
}

function foreignRefs(doc: SourceDocument, allowed: readonly string[], rule: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { ref, tokens } of refsIn(doc.value)) {
    if (allowed.includes(splitRef(ref, doc.file).file)) continue;
    const pointer = toPointer([...tokens, '$ref']);
    out.push({
      severity: 'error',
      file: doc.file,
      ...doc.locate(pointer),
      pointer,
      message: `\`$ref: ${ref}\` points to another file; ${rule} (bundle it first, e.g. with \`redocly bundle\`)`,
      rule: 'references',
    });
  }
  return out;
}

/** Members whose values are data, not descriptions: a `$ref` inside them is just a member of an example. */
const LITERALS = new Set(['example', 'default', 'const', 'enum']);

/** True when `value`, at `key` under the path `tokens`, is data (an example, a default, an extension). */
function isLiteral(tokens: readonly (string | number)[], key: string, value: unknown): boolean {
  if (LITERALS.has(key) || key.startsWith('x-')) return true;
  if (key === 'examples' && Array.isArray(value)) return true; // JSON Schema and AsyncAPI message examples
  return key === 'value' && tokens.at(-2) === 'examples'; // an OpenAPI Example object's value
}

/** Every string `$ref` in `value`, with the path of the object that holds it. */
function* refsIn(
  value: unknown,
  tokens: (string | number)[] = [],
): Generator<{ ref: string; tokens: (string | number)[] }> {
  if (value === null || typeof value !== 'object') return;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') yield { ref, tokens };
  for (const [key, child] of Object.entries(value)) {
    if (child === null || typeof child !== 'object' || isLiteral(tokens, key, child)) continue;
    yield* refsIn(child, [...tokens, Array.isArray(value) ? Number(key) : key]);
  }
}
