/** Reading the OpenAPI document itself where the IR keeps no copy: local references and the examples of an object. */
import type { JsonSchema } from '../generator/ir/model.js';

/** `node`, or what its local `$ref` (`#/…`) names in `document` (followed a few hops). */
export function resolveRef(document: JsonSchema, node: unknown, depth = 0): unknown {
  const ref = (node as { $ref?: unknown } | null | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 8) return node;
  let target: unknown = document;
  for (const token of ref.slice(2).split('/'))
    target = (target as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  return resolveRef(document, target, depth + 1);
}

/** The example values of an object with `example` or `examples` (Example objects' `value`, or a schema's list). */
export function examplesOf(document: JsonSchema, holder: unknown): unknown[] {
  const h = (holder ?? {}) as { example?: unknown; examples?: unknown };
  const values: unknown[] = [];
  if (Array.isArray(h.examples)) values.push(...h.examples);
  else if (h.examples && typeof h.examples === 'object')
    for (const example of Object.values(h.examples as Record<string, unknown>)) {
      const resolved = resolveRef(document, example) as { value?: unknown } | undefined;
      if (resolved && 'value' in resolved) values.push(resolved.value);
    }
  if ('example' in h) values.push(h.example);
  return values;
}
