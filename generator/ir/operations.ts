/** Reads the REST operations of the OpenAPI document into IR operations. */
import { mediaKind } from '../../templates/shared/media.js';
import { InputError } from '../diagnostics.js';
import { deref, type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import { toPointer } from '../load/source-map.js';
import { camelCase } from '../names.js';
import type {
  HttpMethod,
  IrOperation,
  IrParameter,
  IrResponse,
  IrSecurityScheme,
  IrWarning,
  JsonSchema,
  ParameterLocation,
  Transport,
} from './model.js';
import { resolvedPointer } from './resolved-pointer.js';

type Obj = Record<string, unknown>;
/** Every method an OpenAPI path item can hold, in the order the specification lists them. */
const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header', 'cookie'];
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/**
 * A warning for each operation of a path item that is not generated: OpenAPI 3.2's `query` method and its
 * `additionalOperations` (methods such as `SUBSCRIBE`), which casi does not read yet. Nothing is left out unsaid.
 */
function notGenerated(item: Obj, path: string): IrWarning[] {
  const extra =
    item.additionalOperations && typeof item.additionalOperations === 'object' ? item.additionalOperations : {};
  const found = [
    ...(item.query && typeof item.query === 'object' ? [['query', 'QUERY']] : []),
    ...Object.keys(extra).map((method) => [
      `additionalOperations/${method.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      method,
    ]),
  ];
  return found.map(([at, method]) => ({
    document: 'openapi',
    pointer: `${toPointer(['paths', path])}/${at}`,
    message: `the ${method} operation (OpenAPI 3.2) is not generated: casi reads the methods of OpenAPI 3.0 and 3.1, so it has no client method and no route`,
  }));
}

/** Builds the operations of `paths`, sorted by resource, then method name; `warn` hears of renamed methods. */
export function buildOperations(doc: SourceDocument, warn: (warning: IrWarning) => void = () => {}): IrOperation[] {
  const resources = tagResources(doc);
  const globalSecurity = (doc.value.security ?? []) as Obj[];
  const operations: IrOperation[] = [];
  for (const [path, rawItem] of Object.entries((doc.value.paths ?? {}) as Record<string, Obj>)) {
    const item = deref<Obj>(doc, rawItem);
    const itemPointer = resolvedPointer(doc, toPointer(['paths', path]));
    if (/[#?]/.test(path))
      warn({
        document: 'openapi',
        pointer: toPointer(['paths', path]),
        message: `the path ${path} holds a ${path.includes('#') ? 'fragment' : 'query'}, which no request carries: the client sends ${path.replace(/[#?].*$/, '')}`,
      });
    for (const warning of notGenerated(item, path)) warn(warning);
    for (const method of METHODS) {
      const op = item[method] as Obj | undefined;
      if (!op || typeof op !== 'object') continue;
      const id = str(op.operationId) || `${method} ${path}`;
      const tag = str((op.tags as unknown[] | undefined)?.[0]);
      const opPointer = `${itemPointer}${toPointer([method])}`;
      const parameters = readParameters(doc, path, [
        ...declared(item.parameters, `${itemPointer}/parameters`),
        ...declared(op.parameters, `${opPointer}/parameters`),
      ]);
      const body = op.requestBody ? deref<Obj>(doc, op.requestBody) : undefined;
      const media = body ? preferredMedia((body.content ?? {}) as Record<string, Obj>) : undefined;
      const responses = readResponses(doc, (op.responses ?? {}) as Obj, `${opPointer}/responses`);
      const paginated = op['x-casi-paginated'] as 'data' | 'page' | undefined;
      const security = securityNames((op.security as Obj[] | undefined) ?? globalSecurity);
      operations.push({
        id,
        resource: resources.get(tag) ?? (camelCase(tag) || firstSegment(path)),
        methodName: identifierOf(str(op['x-casi-method']) || camelCase(str(op.operationId) || `${method} ${path}`)),
        method,
        path,
        pointer: toPointer(['paths', path, method]),
        transport: str(op['x-casi-transport'], 'http') as Transport,
        summary: str(op.summary),
        description: str(op.description).trim(),
        parameters,
        ...(media
          ? {
              requestBody: {
                required: body?.required === true,
                contentType: media.type,
                schema: (media.value.schema ?? {}) as JsonSchema,
                schemaPointer: mediaSchemaPointer(doc, `${opPointer}/requestBody`, media.type),
                ...otherContentTypes((body?.content ?? {}) as Record<string, Obj>, media.type),
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
  const sorted = clearOfClientMembers(operations, warn).sort(
    (a, b) =>
      a.resource.localeCompare(b.resource) ||
      a.methodName.localeCompare(b.methodName) ||
      a.path.localeCompare(b.path) ||
      METHODS.indexOf(a.method) - METHODS.indexOf(b.method),
  );
  return withUniqueNames(sorted, warn);
}

/** The members the generated client has beside its resources. */
const CLIENT_MEMBERS = new Set(['raw', 'core']);

/**
 * A resource named like a member the client has already (`/raw/…` gives `raw`) gets a number (`raw2`), with a
 * warning at each of its operations: one object never holds two members of the same name.
 */
function clearOfClientMembers(operations: IrOperation[], warn: (warning: IrWarning) => void): IrOperation[] {
  const resources = new Set(operations.map((op) => op.resource));
  const renamed = new Map<string, string>();
  for (const resource of resources) {
    if (!CLIENT_MEMBERS.has(resource)) continue;
    let n = 2;
    while (resources.has(`${resource}${n}`)) n++;
    renamed.set(resource, `${resource}${n}`);
  }
  return operations.map((op) => {
    const resource = renamed.get(op.resource);
    if (resource === undefined) return op;
    warn({
      document: 'openapi',
      pointer: op.pointer,
      message: `${op.method.toUpperCase()} ${op.path}: the client has a member ${op.resource} already: the resource is ${resource}`,
    });
    return { ...op, resource };
  });
}

/** A name that is a JavaScript identifier: `_` before a leading digit, `operation` for an empty one. */
function identifierOf(name: string): string {
  if (name === '') return 'operation';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** The first segment of a path that is not a parameter, camel-cased (`/pets/{id}` → `pets`), else `root`. */
function firstSegment(path: string): string {
  const segment = path.split('/').find((s) => s !== '' && !s.startsWith('{'));
  return identifierOf(camelCase(segment ?? '') || 'root');
}

/**
 * Operations whose resource and method name, or whose id, are taken already get a number (`get2`, `get3`), in their
 * sorted order, and a warning: one object never holds two members of the same name.
 */
function withUniqueNames(operations: IrOperation[], warn: (warning: IrWarning) => void): IrOperation[] {
  const names = new Unique(operations.map((op) => `${op.resource}.${op.methodName}`));
  const ids = new Unique(operations.map((op) => op.id));
  return operations.map((op) => {
    const methodName = names.claim(`${op.resource}.${op.methodName}`).slice(op.resource.length + 1);
    const id = ids.claim(op.id);
    const renamed = [
      ...(methodName === op.methodName
        ? []
        : [`${op.resource}.${op.methodName} is taken: it is ${op.resource}.${methodName}`]),
      ...(id === op.id ? [] : [`operationId ${op.id} is taken: its handler is ${id}`]),
    ];
    if (renamed.length === 0) return op;
    warn({
      document: 'openapi',
      pointer: op.pointer,
      message: `${op.method.toUpperCase()} ${op.path}: ${renamed.join('; ')}`,
    });
    return { ...op, methodName, id };
  });
}

/** Hands out each name once: the second claim of a name gets `name2`, then `name3`, skipping names in use. */
class Unique {
  readonly #taken: Set<string>;
  readonly #claimed = new Set<string>();

  constructor(names: readonly string[]) {
    this.#taken = new Set(names);
  }

  claim(name: string): string {
    if (!this.#claimed.has(name)) {
      this.#claimed.add(name);
      return name;
    }
    let n = 2;
    while (this.#taken.has(`${name}${n}`) || this.#claimed.has(`${name}${n}`)) n++;
    const numbered = `${name}${n}`;
    this.#claimed.add(numbered);
    this.#taken.add(numbered);
    return numbered;
  }
}

/** Maps each tag name to its `x-casi-resource`. */
function tagResources(doc: SourceDocument): Map<string, string> {
  const tags = (doc.value.tags ?? []) as Obj[];
  return new Map(tags.map((t) => [str(t.name), str(t['x-casi-resource'])] as const).filter(([, r]) => r !== ''));
}

/** The entries of a `parameters` list, each with its pointer. */
function declared(list: unknown, pointer: string): { value: unknown; pointer: string }[] {
  return Array.isArray(list) ? list.map((value, i) => ({ value, pointer: `${pointer}/${i}` })) : [];
}

/** Where the schema of media type `type` of the content of the object at `pointer` (a body, an answer) is. */
function mediaSchemaPointer(doc: SourceDocument, pointer: string, type: string): string {
  return resolvedPointer(doc, `${resolvedPointer(doc, pointer)}${toPointer(['content', type, 'schema'])}`);
}

/**
 * Resolves and groups parameters by location; operation-level ones override path-level ones of the same name.
 * Path parameters come in the order the path names them; the others by name.
 */
function readParameters(
  doc: SourceDocument,
  path: string,
  raw: { value: unknown; pointer: string }[],
): IrOperation['parameters'] {
  const byKey = new Map<string, IrParameter>();
  for (const entry of raw) {
    const p = deref<Obj>(doc, entry.value);
    const location = str(p.in) as ParameterLocation;
    if (!LOCATIONS.includes(location)) continue;
    const contentType = p.content ? Object.keys(p.content as Record<string, Obj>)[0] : undefined;
    const content = contentType === undefined ? undefined : (p.content as Record<string, Obj>)[contentType];
    byKey.set(`${location}:${str(p.name)}`, {
      name: str(p.name),
      in: location,
      required: p.required === true || location === 'path',
      schema: (p.schema ?? content?.schema ?? {}) as JsonSchema,
      description: str(p.description).trim(),
      ...(typeof p.style === 'string' ? { style: p.style } : {}),
      ...(typeof p.explode === 'boolean' ? { explode: p.explode } : {}),
      ...(p.schema === undefined && contentType !== undefined && mediaKind(contentType) === 'json'
        ? { json: true as const }
        : {}),
      schemaPointer:
        p.schema === undefined && contentType !== undefined
          ? mediaSchemaPointer(doc, entry.pointer, contentType)
          : resolvedPointer(doc, `${resolvedPointer(doc, entry.pointer)}/schema`),
    });
  }
  const all = [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name));
  const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return {
    path: all.filter((p) => p.in === 'path').sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name)),
    query: all.filter((p) => p.in === 'query'),
    header: all.filter((p) => p.in === 'header'),
    cookie: all.filter((p) => p.in === 'cookie'),
  };
}

/** Media types in the order a client prefers to send or read them. */
const PREFERRED = [
  /^application\/json$/,
  /^application\/[^;]*\+json$/,
  /^application\/x-www-form-urlencoded$/,
  /^multipart\/form-data$/,
  /^text\/event-stream$/,
  /^application\/octet-stream$/,
  /^text\/plain$/,
];

/** The media type of `content` a client uses: the first preferred one, else the first listed. */
export function preferredMedia(content: Record<string, Obj>): { type: string; value: Obj } | undefined {
  const types = Object.keys(content);
  const rank = (t: string) => {
    const i = PREFERRED.findIndex((re) => re.test(t.toLowerCase()));
    return i === -1 ? PREFERRED.length : i;
  };
  const type = [...types].sort((a, b) => rank(a) - rank(b))[0];
  return type === undefined ? undefined : { type, value: content[type] ?? {} };
}

/** Media types whose bodies the server reads into the same kind of value: JSON, a form, multipart. */
const OBJECT_MEDIA = new Set(['json', 'form', 'multipart']);

/** `otherContentTypes` of a body whose preferred media type is `preferred` (see IrOperation), when there are any. */
function otherContentTypes(content: Record<string, Obj>, preferred: string): { otherContentTypes?: string[] } {
  const schema = JSON.stringify(content[preferred]?.schema ?? {});
  if (!OBJECT_MEDIA.has(mediaKind(preferred))) return {};
  const others = Object.keys(content).filter(
    (type) =>
      type !== preferred && OBJECT_MEDIA.has(mediaKind(type)) && JSON.stringify(content[type]?.schema ?? {}) === schema,
  );
  return others.length > 0 ? { otherContentTypes: others } : {};
}

/** Resolves the responses at `pointer`; the first content type of each gives its body schema. */
function readResponses(doc: SourceDocument, responses: Obj, pointer: string): IrResponse[] {
  return Object.entries(responses)
    .map(([status, raw]): IrResponse => {
      const r = deref<Obj>(doc, raw);
      const media = preferredMedia((r.content ?? {}) as Record<string, Obj>);
      return {
        status,
        description: str(r.description).trim(),
        ...(media ? { contentType: media.type } : {}),
        ...(media?.value.schema
          ? {
              schema: media.value.schema as JsonSchema,
              schemaPointer: mediaSchemaPointer(doc, `${pointer}${toPointer([status])}`, media.type),
            }
          : {}),
        ...(media?.value.itemSchema ? { itemSchema: media.value.itemSchema as JsonSchema } : {}),
        ...exampleOf(doc, media?.value),
        headers: Object.keys((r.headers ?? {}) as Obj).sort(),
      };
    })
    .sort((a, b) => a.status.localeCompare(b.status));
}

/** `{ example }` of a media type: its `example`, else the value of the first of its `examples`; else nothing. */
function exampleOf(doc: SourceDocument, media: Obj | undefined): { example?: unknown } {
  if (media === undefined) return {};
  if ('example' in media) return { example: media.example };
  const first = Object.values((media.examples ?? {}) as Obj)[0];
  if (first === undefined) return {};
  const example = deref<Obj>(doc, first);
  return 'value' in example ? { example: example.value } : {};
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

/** The security schemes of `components.securitySchemes`, as the client places their credentials. */
export function buildSecuritySchemes(doc: SourceDocument): Record<string, IrSecurityScheme> {
  const defined = (valueAt(doc.value, '/components/securitySchemes') ?? {}) as Record<string, unknown>;
  const out: Record<string, IrSecurityScheme> = {};
  for (const name of Object.keys(defined).sort()) {
    const scheme = deref<Obj>(doc, defined[name]);
    const place = str(scheme.in);
    if (scheme.type === 'apiKey' && (place === 'header' || place === 'query' || place === 'cookie'))
      out[name] = { type: 'apiKey', in: place, name: str(scheme.name) };
    else if (scheme.type === 'http' && str(scheme.scheme).toLowerCase() === 'basic') out[name] = { type: 'basic' };
    else out[name] = { type: 'bearer' };
  }
  return out;
}

/** Flattens `[{apiKey: []}, {conversationToken: []}]` into scheme names. */
function securityNames(requirements: Obj[]): string[] {
  return [...new Set(requirements.flatMap((r) => Object.keys(r)))];
}

/** The only allowed `Service-Version` value, from the `ServiceVersion` schema (this service's convention). */
export function serviceVersionOf(doc: SourceDocument): string | undefined {
  const schema = valueAt(doc.value, '/components/schemas/ServiceVersion');
  if (schema === undefined) return undefined;
  const values = valueAt(doc.value, '/components/schemas/ServiceVersion/enum');
  const value = Array.isArray(values) ? values[0] : undefined;
  if (typeof value !== 'string')
    throw new InputError(`${doc.file}: components.schemas.ServiceVersion needs an enum with the version`);
  return value;
}
