/** The `load` stage: reads both spec documents and resolves their references. */
import { dirname, resolve } from 'node:path';
import { InputError } from '../diagnostics.js';
import { pointerTokens, readSourceDocument, type SourceDocument } from './source-map.js';

export type { SourceDocument } from './source-map.js';

/** Both documents, parsed, with positions. */
export interface LoadedSpecs {
  readonly openapi: SourceDocument;
  readonly asyncapi: SourceDocument;
}

/** Reads `openapiFile` and `asyncapiFile`; throws InputError (with file:line diagnostics) when either is unreadable. */
export async function loadSpecs(openapiFile: string, asyncapiFile: string): Promise<LoadedSpecs> {
  const [openapi, asyncapi] = await Promise.all([
    readSourceDocument(resolve(openapiFile)),
    readSourceDocument(resolve(asyncapiFile)),
  ]);
  return { openapi, asyncapi };
}

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

/** Follows local `$ref`s (`#/…`) in `doc` until a value that is not a reference; fails on a dangling one. */
export function deref<T = unknown>(doc: SourceDocument, value: unknown): T {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') return current as T;
    const { file, pointer } = splitRef(ref, doc.file);
    if (file !== doc.file) throw new InputError(`cannot follow ${ref} from ${doc.file}: only local references here`);
    current = valueAt(doc.value, pointer);
    if (current === undefined) throw new InputError(`${doc.file}: ${ref} points to nothing`);
  }
  throw new InputError(`${doc.file}: reference cycle at ${JSON.stringify(value)}`);
}

/** The component name a schema `$ref` points at (`#/components/schemas/X` or `./openapi.yaml#/components/schemas/X`). */
export function schemaRefName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  return /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
}
