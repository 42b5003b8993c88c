/** The `load` stage: reads both spec documents and resolves their references. */
import { resolve } from 'node:path';
import { InputError } from '../diagnostics.js';
import { bundleSpecs } from './bundle.js';
import { hoistPointedSchemas } from './pointed-schemas.js';
import { splitRef, valueAt } from './refs.js';
import { readSourceDocument, type SourceDocument } from './source-map.js';

export { splitRef, valueAt } from './refs.js';
export type { SourceDocument } from './source-map.js';

/** Both documents, parsed, with positions. */
export interface LoadedSpecs {
  readonly openapi: SourceDocument;
  readonly asyncapi: SourceDocument;
  /** Every file they were read from: the two documents, then the files they reference. */
  readonly files: readonly string[];
}

/** Both documents as read, before their references to other files are bundled. */
export type ReadSpecs = Pick<LoadedSpecs, 'openapi' | 'asyncapi'>;

/**
 * Reads `openapiFile` and `asyncapiFile` and bundles the files they reference (bundle.ts); throws InputError (with
 * file:line diagnostics) when a document or a referenced file is unreadable or cannot be bundled. A document not
 * given is an empty stand-in (`absent`): no operations, no channels, nothing to lint.
 */
export async function loadSpecs(
  openapiFile: string | undefined,
  asyncapiFile: string | undefined,
): Promise<LoadedSpecs> {
  return bundleRead(await readSpecs(openapiFile, asyncapiFile));
}

/** Reads both documents, as `loadSpecs` does, without bundling them. */
export async function readSpecs(openapiFile: string | undefined, asyncapiFile: string | undefined): Promise<ReadSpecs> {
  const [openapi, asyncapi] = await Promise.all([
    openapiFile === undefined ? absentDocument('openapi') : readSourceDocument(resolve(openapiFile)),
    asyncapiFile === undefined ? absentDocument('asyncapi') : readSourceDocument(resolve(asyncapiFile)),
  ]);
  return { openapi, asyncapi };
}

/**
 * The end of `loadSpecs`: bundles the documents `readSpecs` read, then makes each schema a reference names by pointer
 * a component schema (pointed-schemas.ts).
 */
export async function bundleRead({ openapi, asyncapi }: ReadSpecs): Promise<LoadedSpecs> {
  const bundled = hoistPointedSchemas(await bundleSpecs({ openapi, asyncapi }));
  const absent = [openapi, asyncapi].filter((doc) => doc.absent).map((doc) => doc.file);
  return { ...bundled, files: bundled.files.filter((file) => !absent.includes(file)) };
}

/** The empty stand-in for a document of `kind` that was not given. */
function absentDocument(kind: 'openapi' | 'asyncapi'): SourceDocument {
  const value: Record<string, unknown> =
    kind === 'openapi'
      ? { openapi: '3.1.0', info: { title: '', version: '' }, paths: {} }
      : { asyncapi: '3.0.0', info: { title: '', version: '' }, channels: {} };
  return { file: `(no ${kind} document)`, text: '', value, locate: () => ({ line: 0, column: 0 }), absent: true };
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
