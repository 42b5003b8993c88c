/**
 * Two operations of one resource named alike with `x-casi-method` would be two members of one client object; the
 * model would number the second, which is not what either name asked for, so it is an error naming both.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { SourceDocument } from '../load/index.js';
import { toPointer } from '../load/source-map.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An error for each operation whose resource (first tag) and `x-casi-method` an earlier operation has. */
export function checkMethodNames(openapi: SourceDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Map<string, string>();
  const paths = (openapi.value.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item?.[method] as { 'x-casi-method'?: unknown; tags?: unknown[] } | undefined;
      const name = op?.['x-casi-method'];
      if (typeof name !== 'string') continue;
      const pointer = toPointer(['paths', path, method, 'x-casi-method']);
      const key = `${String(op?.tags?.[0] ?? '')}.${name}`;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, pointer);
        continue;
      }
      const { line, column } = openapi.locate(first);
      out.push({
        severity: 'error',
        file: openapi.file,
        ...openapi.locate(pointer),
        pointer,
        message: `x-casi-method ${name} is taken in its resource by ${first} (line ${line}:${column}): give one of them another name`,
        rule: 'casi/method-name',
      });
    }
  }
  return out;
}
