/**
 * Prepares the OpenAPI document for Redoc: every `x-casi-inferred` element gets a visible mark — an `Inferred`
 * badge (`x-badges`) on operations, parameters and schemas, which Redoc shows beside their names, and a leading
 * *Inferred* note in the description of the rest (responses, headers, servers, …) — and the introduction links to
 * the events reference.
 */
import type { JsonSchema } from '../ir/model.js';

type Obj = Record<string, unknown>;

/** The badge Redoc shows beside an inferred operation, parameter or schema. */
export const INFERRED_X_BADGE = { name: 'Inferred', color: 'orange' } as const;
/** The note that starts the description of other inferred elements. */
export const INFERRED_NOTE = '*Inferred (see DECISIONS.md):*';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Keys of a schema whose value is one schema, a map of schemas, or a list of schemas. */
const SCHEMA_KEYS = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else']);
const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs']);
const SCHEMA_LIST_KEYS = new Set(['allOf', 'oneOf', 'anyOf', 'prefixItems']);

/** What a node of the document is, as far as marking goes (containers included). */
type Kind =
  | 'operation'
  | 'parameter'
  | 'schema'
  | 'pathMap'
  | 'pathItem'
  | 'schemaMap'
  | 'schemaList'
  | 'parameterMap'
  | 'parameterList'
  | 'other';

/** The marked copy of `openapi` and the operationIds marked inferred. */
export interface RestDocument {
  readonly document: JsonSchema;
  readonly inferredOperations: readonly string[];
}

/** Returns a marked deep copy of `openapi` (the input is not changed). */
export function prepareRestDocument(openapi: JsonSchema): RestDocument {
  const document = structuredClone(openapi) as Obj;
  const inferredOperations: string[] = [];
  visit(document, 'other', (node, kind) => {
    if (node['x-casi-inferred'] !== true) return;
    if (kind === 'other') {
      const text = typeof node.description === 'string' ? node.description : '';
      node.description = text ? `${INFERRED_NOTE} ${text}` : INFERRED_NOTE;
      return;
    }
    const badges = Array.isArray(node['x-badges']) ? node['x-badges'] : [];
    node['x-badges'] = [...badges, { ...INFERRED_X_BADGE }];
    if (kind === 'operation' && typeof node.operationId === 'string') inferredOperations.push(node.operationId);
  });
  const info = (document.info ?? {}) as Obj;
  document.info = {
    ...info,
    description: `${typeof info.description === 'string' ? info.description.trimEnd() : ''}

In this reference those elements carry an **Inferred** badge, or start with *Inferred*. The live events (Server-Sent
Events, the WebSocket session and the webhook) are documented in the [events reference](events.html).
`,
  };
  return { document: document as JsonSchema, inferredOperations: inferredOperations.sort() };
}

/** Walks the document depth-first, telling each object node what it is from the keys that lead to it. */
function visit(node: unknown, kind: Kind, onNode: (node: Obj, kind: Kind) => void, depth = 0): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) visit(child, childKind(kind, '', depth), onNode, depth + 1);
    return;
  }
  const obj = node as Obj;
  onNode(obj, kind);
  for (const [key, child] of Object.entries(obj)) visit(child, childKind(kind, key, depth), onNode, depth + 1);
}

/** The kind of the value under `key` (or of an item, for lists) of a node of `kind` at `depth`. */
function childKind(kind: Kind, key: string, depth: number): Kind {
  switch (kind) {
    case 'pathMap':
      return 'pathItem';
    case 'pathItem':
      return METHODS.has(key) ? 'operation' : key === 'parameters' ? 'parameterList' : 'other';
    case 'schemaMap':
    case 'schemaList':
      return 'schema';
    case 'parameterMap':
    case 'parameterList':
      return 'parameter';
    case 'schema':
      if (SCHEMA_KEYS.has(key)) return 'schema';
      if (SCHEMA_MAP_KEYS.has(key)) return 'schemaMap';
      return SCHEMA_LIST_KEYS.has(key) ? 'schemaList' : 'other';
  }
  if (depth === 0 && (key === 'paths' || key === 'webhooks')) return 'pathMap';
  if (depth === 1 && key === 'schemas') return 'schemaMap';
  if (depth === 1 && key === 'parameters') return 'parameterMap';
  if (key === 'schema') return 'schema';
  return key === 'parameters' ? 'parameterList' : 'other';
}
