/** Reads the REST operations of the OpenAPI document into IR operations. */
import { InputError } from '../diagnostics.js';
import { deref, type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import type {
  HttpMethod,
  IrOperation,
  IrParameter,
  IrResponse,
  JsonSchema,
  ParameterLocation,
  Transport,
} from './model.js';

type Obj = Record<string, unknown>;
const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'delete'];
const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header'];
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/** Builds the operations of `paths`, sorted by resource, then method name. */
export function buildOperations(doc: SourceDocument): IrOperation[] {
  const resources = tagResources(doc);
  const globalSecurity = (doc.value.security ?? []) as Obj[];
  const operations: IrOperation[] = [];
  for (const [path, rawItem] of Object.entries((doc.value.paths ?? {}) as Record<string, Obj>)) {
    const item = deref<Obj>(doc, rawItem);
    for (const method of METHODS) {
      const op = item[method] as Obj | undefined;
      if (!op) continue;
      const id = str(op.operationId);
      const tag = str((op.tags as unknown[] | undefined)?.[0]);
      const resource = resources.get(tag);
      if (!id || !resource)
        throw new InputError(
          `${doc.file}: ${method.toUpperCase()} ${path} needs an operationId and a tag with x-casi-resource`,
        );
      const parameters = readParameters(doc, [
        ...((item.parameters as unknown[]) ?? []),
        ...((op.parameters as unknown[]) ?? []),
      ]);
      const body = op.requestBody ? deref<Obj>(doc, op.requestBody) : undefined;
      const json = body ? ((body.content as Obj | undefined)?.['application/json'] as Obj | undefined) : undefined;
      const responses = readResponses(doc, (op.responses ?? {}) as Obj);
      const paginated = op['x-casi-paginated'] as 'data' | 'page' | undefined;
      const security = securityNames((op.security as Obj[] | undefined) ?? globalSecurity);
      operations.push({
        id,
        resource,
        methodName: str(op['x-casi-method'], id),
        method,
        path,
        transport: str(op['x-casi-transport'], 'http') as Transport,
        summary: str(op.summary),
        description: str(op.description).trim(),
        parameters,
        ...(json
          ? {
              requestBody: {
                required: body?.required === true,
                contentType: 'application/json',
                schema: json.schema as JsonSchema,
              },
            }
          : {}),
        responses,
        security,
        credentialParameters: credentialParameters(doc, security),
        ...(paginated ? { paginated, pageItem: pageItemName(doc, responses, paginated) } : {}),
        inferred: op['x-casi-inferred'] === true,
      });
    }
  }
  return operations.sort((a, b) => a.resource.localeCompare(b.resource) || a.methodName.localeCompare(b.methodName));
}

/** Maps each tag name to its `x-casi-resource`. */
function tagResources(doc: SourceDocument): Map<string, string> {
  const tags = (doc.value.tags ?? []) as Obj[];
  return new Map(tags.map((t) => [str(t.name), str(t['x-casi-resource'])] as const).filter(([, r]) => r !== ''));
}

/** Resolves and groups parameters by location; operation-level ones override path-level ones of the same name. */
function readParameters(doc: SourceDocument, raw: unknown[]): IrOperation['parameters'] {
  const byKey = new Map<string, IrParameter>();
  for (const entry of raw) {
    const p = deref<Obj>(doc, entry);
    const location = str(p.in) as ParameterLocation;
    if (!LOCATIONS.includes(location)) continue;
    byKey.set(`${location}:${str(p.name)}`, {
      name: str(p.name),
      in: location,
      required: p.required === true,
      schema: (p.schema ?? {}) as JsonSchema,
      description: str(p.description).trim(),
    });
  }
  const all = [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    path: all.filter((p) => p.in === 'path'),
    query: all.filter((p) => p.in === 'query'),
    header: all.filter((p) => p.in === 'header'),
  };
}

/** Resolves responses; the first content type of each gives its body schema. */
function readResponses(doc: SourceDocument, responses: Obj): IrResponse[] {
  return Object.entries(responses)
    .map(([status, raw]): IrResponse => {
      const r = deref<Obj>(doc, raw);
      const [contentType, media] = Object.entries((r.content ?? {}) as Record<string, Obj>)[0] ?? [];
      return {
        status,
        description: str(r.description).trim(),
        ...(contentType ? { contentType } : {}),
        ...(media?.schema ? { schema: media.schema as JsonSchema } : {}),
        headers: Object.keys((r.headers ?? {}) as Obj).sort(),
      };
    })
    .sort((a, b) => a.status.localeCompare(b.status));
}

/** The item schema name of a cursor list: the 200 body's `<member>.items` reference. */
function pageItemName(doc: SourceDocument, responses: IrResponse[], member: string): string {
  const page = schemaRefName(responses.find((r) => r.status === '200')?.schema?.$ref);
  const items = valueAt(doc.value, `/components/schemas/${page ?? ''}/properties/${member}/items/$ref`);
  const name = schemaRefName(items);
  if (!name)
    throw new InputError(
      `${doc.file}: x-casi-paginated: ${member} needs a 200 body whose ${member} is an array of a component schema`,
    );
  return name;
}

/** The query parameters that API-key schemes `in: query` among `schemes` read their credential from. */
function credentialParameters(doc: SourceDocument, schemes: readonly string[]): IrParameter[] {
  const defined = (valueAt(doc.value, '/components/securitySchemes') ?? {}) as Record<string, Obj>;
  return schemes
    .map((name) => defined[name])
    .filter((s): s is Obj => s?.type === 'apiKey' && s.in === 'query' && typeof s.name === 'string')
    .map((s) => ({
      name: str(s.name),
      in: 'query' as const,
      required: false,
      schema: { type: 'string', minLength: 1 },
      description: str(s.description).trim(),
    }));
}

/** Flattens `[{apiKey: []}, {conversationToken: []}]` into scheme names. */
function securityNames(requirements: Obj[]): string[] {
  return [...new Set(requirements.flatMap((r) => Object.keys(r)))];
}

/** The only allowed `Service-Version` value, from the `ServiceVersion` schema. */
export function serviceVersionOf(doc: SourceDocument): string {
  const values = valueAt(doc.value, '/components/schemas/ServiceVersion/enum');
  const value = Array.isArray(values) ? values[0] : undefined;
  if (typeof value !== 'string')
    throw new InputError(`${doc.file}: components.schemas.ServiceVersion needs an enum with the version`);
  return value;
}
