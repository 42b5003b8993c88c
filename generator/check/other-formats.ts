/**
 * The AsyncAPI parser's findings about a payload in another schema format than JSON Schema (Avro, Protobuf, …) that
 * it could not read (a URL it could not fetch, a file that is not there). casi does not read such a schema, so
 * generation does not need it: that the reference cannot be read is a warning, and what the parser then finds in the
 * reference's place (it validates `{$ref}` as an Avro schema) is left out.
 */
import type { Diagnostic } from '../diagnostics.js';
import { inOtherFormat, isForeignRef, isInOtherFormat, resolveLocal } from '../load/refs.js';
import { pointerTokens, type SourceDocument } from '../load/source-map.js';

type Obj = Record<string, unknown>;

const UNREADABLE = 'asyncapi/invalid-ref';
const RESOLVED_DOCUMENT = 'asyncapi/asyncapi-document-resolved';

/** `lints` with the findings above made a warning or left out. */
export function unreadPayloads(lints: readonly Diagnostic[], asyncapi: SourceDocument): Diagnostic[] {
  const unread = (d: Diagnostic) =>
    d.rule === UNREADABLE && d.file === asyncapi.file && isInOtherFormat(asyncapi.value, d.pointer);
  if (!lints.some(unread)) return [...lints];
  return lints.flatMap((d): Diagnostic[] => {
    if (unread(d))
      return [
        {
          ...d,
          severity: 'warning',
          message: `${d.message}; the schema is not JSON Schema, and casi does not read it`,
        },
      ];
    if (d.rule === RESOLVED_DOCUMENT && d.file === asyncapi.file && throughUnreadPayload(asyncapi.value, d.pointer))
      return [];
    return [d];
  });
}

/**
 * True when the way to `pointer` (local references followed) passes an object whose payload is in another format
 * and written elsewhere: a message such as `{schemaFormat: avro, payload: {$ref: https://…}}`, or where it is used.
 */
function throughUnreadPayload(root: Obj, pointer: string): boolean {
  let node: unknown = root;
  for (const token of [...pointerTokens(pointer), undefined]) {
    // A list (a 2.6 message's oneOf, an operation's messages) is stepped through by index.
    const holder: Obj = Array.isArray(node) ? { ...node } : resolveLocal(root, node);
    if (['payload', 'schema'].some((key) => inOtherFormat(holder, key) && isForeignRef(holder[key]))) return true;
    if (token === undefined) return false;
    node = holder[token];
  }
  return false;
}
