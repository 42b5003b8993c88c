/**
 * Emits `client.gen.ts`: `createClient(options)` with one method per operation, grouped by resource
 * (`client.conversations.create(body)`, `client.proceduralAgents.release(versionId)`, …), on the runtime of
 * `templates/client/`: REST calls through `createCore`, cursor lists through `paginate`, the SSE stream through
 * `streamEvents` and the WebSocket session through `openLazySession`. The event validators are imported only when a
 * stream or session needs them, so that bundlers can leave them out of a REST-only page.
 */
import type { StatementStructures } from 'ts-morph';
import { type MediaKind, mediaKind } from '../../../templates/shared/media.js';
import type { Ir, IrOperation, IrParameter, ParameterLocation } from '../../ir/model.js';
import { camelCase, isPlainName } from '../../names.js';
import {
  bodyType,
  operationType,
  paramsType,
  queryType,
  successBodyType,
  successResponse,
  TYPES,
} from '../shared/operation-types.js';
import {
  docText,
  emitTypeScript,
  literal,
  propertyName,
  StructureKind,
  type TypeScriptFile,
  VariableDeclarationKind,
} from '../shared/ts.js';
import { validatorName } from '../validators/index.js';

const RUNTIME = './runtime/client/index.js';

/** The type of `CasiApiError`'s `code`: the spec's codes (where it has the table), and any other string. */
function errorCodeType(ir: Ir): string {
  return ir.errorCodes.length > 0 ? `${TYPES}.ErrorCode | (string & {})` : 'string';
}

/** Builds the client file. */
export function emitClient(ir: Ir): TypeScriptFile[] {
  const ERROR_CODE = errorCodeType(ir);
  const version = ir.serviceVersion;
  const streams = ir.operations.some((op) => op.transport !== 'http');
  const terminal = ir.events.filter((e) => e.direction === 'server' && e.terminal).map((e) => e.type);
  const resources = [...new Set(ir.operations.map((op) => op.resource))].sort();
  const http = ir.operations.filter((op) => op.transport === 'http');
  const itemStreams = http.some((op) => successKind(op) === 'event-stream');
  const binaryBodies = http.some((op) => op.requestBody && mediaKind(op.requestBody.contentType) === 'binary');
  const styled = http.some((op) => stylesText(op) !== '');
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: RUNTIME,
      namedImports: [
        'ApiError',
        'createCore',
        ...(itemStreams ? ['itemsOf'] : []),
        ...(streams ? ['mergeHeaders'] : []),
        'openLazySession',
        'paginate',
        'streamEvents',
        ...(styled ? ['styledWriters'] : []),
      ],
    },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: RUNTIME,
      isTypeOnly: true,
      namedImports: [
        'ApiErrorClass',
        'ApiPromise',
        ...(binaryBodies ? ['BinaryBody'] : []),
        'CallOptions',
        'CoreOptions',
        'EventStream',
        'Paginated',
        'SecuritySchemes',
        'Session',
        'SessionCallOptions',
        'StreamCallOptions',
      ],
    },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: './types.gen.js',
      namespaceImport: TYPES,
      isTypeOnly: true,
    },
    { kind: StructureKind.ExportDeclaration, moduleSpecifier: RUNTIME },
    ...versionConstant(version),
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["How each of the spec's security schemes carries the credential, by name."],
      declarations: [
        {
          name: 'SECURITY_SCHEMES',
          type: 'SecuritySchemes',
          initializer: `{\n${Object.entries(ir.securitySchemes)
            .map(([name, scheme]) => `  ${propertyName(name)}: ${objectLiteral(scheme)},`)
            .join('\n')}\n}`,
        },
      ],
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'ClientOptions',
      docs: [
        'Options of `createClient`: `baseUrl`, `apiKey` (or `username` and `password`), `fetch`, `timeoutMs`, `maxRetries`, `defaultHeaders`, `retry`, `strict`, `unknownEvents`.',
      ],
      type: "Omit<CoreOptions, 'serviceVersion' | 'securitySchemes'>",
    },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["`ApiError` with `code` typed from the spec's error-code table (`instanceof` works as for `ApiError`)."],
      declarations: [{ name: 'CasiApiError', type: `ApiErrorClass<${ERROR_CODE}>`, initializer: 'ApiError' }],
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'CasiApiError',
      docs: ["An `ApiError` whose `code` is typed from the spec's error-code table."],
      type: `ApiError<${ERROR_CODE}>`,
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'createClient',
      docs: [
        'A typed client of the whole API: one method per operation, grouped by resource; `raw` is the openapi-fetch client.',
      ],
      parameters: [{ name: 'options', type: 'ClientOptions' }],
      statements: [
        `const core = createCore<${TYPES}.paths>({ ...options, securitySchemes: SECURITY_SCHEMES${version === undefined ? '' : ', serviceVersion: SERVICE_VERSION'} });`,
        ...(streams
          ? [
              `const isTerminal = (event: ${TYPES}.ServerEvent): boolean => ${terminal.length ? terminal.map((t) => `event.payload.type === ${literal(t)}`).join(' || ') : 'false'};`,
              `const validators = () => import('./validators.events.gen.js');`,
            ]
          : []),
        ...(version === undefined ? [] : [`const header = { 'Service-Version': SERVICE_VERSION } as const;`]),
        `return {\n  raw: core.raw,\n  core,\n${resources
          .map(
            (r) =>
              `  ${propertyName(r)}: {\n${ir.operations
                .filter((op) => op.resource === r)
                .map((op) => methodText(op, version !== undefined))
                .join(',\n')}\n  },`,
          )
          .join('\n')}\n};`,
      ],
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'Client',
      docs: ['The client `createClient` returns.'],
      type: 'ReturnType<typeof createClient>',
    },
  ];
  return [emitTypeScript('src/client.gen.ts', statements)];
}

/** `SERVICE_VERSION`, for APIs that have one. */
function versionConstant(version: string | undefined): StatementStructures[] {
  if (version === undefined) return [];
  return [
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['The `Service-Version` this client speaks.'],
      declarations: [{ name: 'SERVICE_VERSION', initializer: literal(version) }],
    },
  ];
}

/** One method of a resource, as an arrow function with a doc comment; `versioned` sends the `Service-Version`. */
function methodText(op: IrOperation, versioned: boolean): string {
  const pathArgs = argumentNames(op.parameters.path.map((p) => p.name));
  const args = pathArgs.map((a) => `${a.name}: ${paramsType(op)}[${literal(a.param)}]`);
  const requestKind = op.requestBody ? mediaKind(op.requestBody.contentType) : undefined;
  const body = requestKind === 'binary' ? 'BinaryBody' : bodyType(op);
  if (body) args.push(`body: ${body}`);
  const hasQuery = op.transport === 'http' && op.parameters.query.length > 0;
  const queryRequired = op.parameters.query.some((p) => p.required);
  if (hasQuery) args.push(queryRequired ? `query: ${queryType(op)}` : `query: ${queryType(op)} = {}`);
  // Header parameters of the spec's own (the `Service-Version` of this service's spec is sent for the caller).
  const headerParams = op.parameters.header.filter((p) => !versioned || p.name.toLowerCase() !== 'service-version');
  const hasHeaders = op.transport === 'http' && headerParams.length > 0;
  if (hasHeaders) {
    const type = `Omit<NonNullable<${operationType(op)}['parameters']['header']>, 'Service-Version'>`;
    args.push(headerParams.some((p) => p.required) ? `headers: ${type}` : `headers: ${type} = {}`);
  }
  const header =
    versioned && hasHeaders
      ? 'header: { ...header, ...headers }'
      : hasHeaders
        ? 'header: headers'
        : versioned
          ? 'header'
          : '';
  const hasCookies = op.transport === 'http' && op.parameters.cookie.length > 0;
  if (hasCookies) {
    const type = `NonNullable<${operationType(op)}['parameters']['cookie']>`;
    args.push(op.parameters.cookie.some((p) => p.required) ? `cookies: ${type}` : `cookies: ${type} = {}`);
  }
  const path = pathArgs.length
    ? `path: { ${pathArgs.map((a) => (a.param === a.name ? a.name : `${propertyName(a.param)}: ${a.name}`)).join(', ')} }`
    : '';
  const route = `\`${op.method.toUpperCase()} ${op.path}\``;
  const doc = `    /** ${op.summary ? `${docText(op.summary)} (${route})` : route}. */\n`;
  if (op.transport === 'sse') {
    args.push('options: StreamCallOptions = {}');
    return `${doc}    ${propertyName(op.methodName)}: (${args.join(', ')}): EventStream<${TYPES}.ServerEvent> =>\n      streamEvents<${TYPES}.ServerEvent>({ ...core.transport, url: core.url(${literal(op.path)}, { ${path} }), loadValidator: () => validators().then((v) => v.${validatorName('ServerEvent')}), isTerminal, ...options, headers: mergeHeaders({}, core.transport.headers, options.headers) })`;
  }
  if (op.transport === 'websocket') {
    args.push('options: SessionCallOptions = {}');
    return `${doc}    ${propertyName(op.methodName)}: (${args.join(', ')}): Session<${TYPES}.ServerEvent, ${TYPES}.ClientEvent> =>\n      openLazySession<${TYPES}.ServerEvent, ${TYPES}.ClientEvent>({ ...core.transport, url: core.url(${literal(op.path)}, { ${path} }), loadValidators: () => validators().then((v) => ({ server: v.${validatorName('ServerEvent')}, client: v.${validatorName('ClientEvent')} })), isTerminal, ...options, headers: mergeHeaders({}, core.transport.headers, options.headers) })`;
  }
  args.push('options: CallOptions = {}');
  const result = successBodyType(op);
  const params = (query: string) => {
    const members = [header, path, query, hasCookies ? 'cookie: cookies' : ''].filter(Boolean);
    return members.length > 0 ? `params: { ${members.join(', ')} }, ` : '';
  };
  const security = `security: [${op.security.map(literal).join(', ')}]`;
  const readAs = READ_AS[successKind(op) ?? 'json'];
  const media = [
    op.requestBody && op.requestBody.contentType !== 'application/json'
      ? `contentType: ${literal(op.requestBody.contentType)}`
      : '',
    readAs === undefined ? '' : `readAs: ${literal(readAs)}`,
    stylesText(op),
  ].filter(Boolean);
  const init = (query: string) =>
    `{ ${params(query)}${body ? 'body, ' : ''}${media.map((m) => `${m}, `).join('')}${security}, ...options }`;
  const call = (query: string) => `core.request(${literal(op.method)}, ${literal(op.path)}, ${init(query)})`;
  if (op.paginated && result) {
    const item = `${TYPES}.${op.pageItem}`;
    return `${doc}    ${propertyName(op.methodName)}: (${args.join(', ')}): Paginated<${result}, ${item}> =>\n      paginate((cursor?: string) => ${call('query: cursor === undefined ? query : { ...query, cursor }')}, ${literal(op.paginated)})`;
  }
  if (readAs === 'event-stream') {
    return `${doc}    ${propertyName(op.methodName)}: (${args.join(', ')}): AsyncIterable<${result ?? 'unknown'}> =>\n      itemsOf<${result ?? 'unknown'}>(() => ${call(hasQuery ? 'query' : '')})`;
  }
  return `${doc}    ${propertyName(op.methodName)}: (${args.join(', ')})${result ? `: ApiPromise<${result}>` : ''} =>\n      ${call(hasQuery ? 'query' : '')}`;
}

/** How the runtime reads a success answer of each media kind (JSON, the default, says nothing). */
const READ_AS: Readonly<Record<MediaKind, 'text' | 'blob' | 'event-stream' | undefined>> = {
  json: undefined,
  form: 'text',
  text: 'text',
  multipart: 'blob',
  binary: 'blob',
  'event-stream': 'event-stream',
};

/** The media kind of an HTTP operation's success answer, or undefined when it has no body. */
function successKind(op: IrOperation): MediaKind | undefined {
  const type = successResponse(op)?.contentType;
  return type === undefined ? undefined : mediaKind(type);
}

/** Each location's default `[style, explode]`. */
const DEFAULT_STYLES: Readonly<Record<ParameterLocation, readonly [string, boolean]>> = {
  path: ['simple', false],
  query: ['form', true],
  header: ['simple', false],
  cookie: ['form', true],
};

/**
 * A parameter's `[style, explode]` as the spec says, with OpenAPI's defaults filled in; `['json', false]` for one
 * declared with JSON `content`.
 */
function styleOf(p: IrParameter): readonly [string, boolean] {
  if (p.json) return ['json', false];
  const style = p.style ?? DEFAULT_STYLES[p.in][0];
  return [style, p.explode ?? style === 'form'];
}

/**
 * `writers: styledWriters({ query: { tags: ['pipeDelimited', false] } })` for parameters not in their location's
 * default style: only a client with such a parameter imports the writers of the other styles.
 */
function stylesText(op: IrOperation): string {
  const locations = (['path', 'query', 'header', 'cookie'] as const)
    .map((location) => {
      const styled = op.parameters[location]
        .map((p) => [p, styleOf(p)] as const)
        .filter(([p, [style, explode]]) => style !== DEFAULT_STYLES[p.in][0] || explode !== DEFAULT_STYLES[p.in][1])
        .map(([p, [style, explode]]) => `${propertyName(p.name)}: [${literal(style)}, ${explode}]`);
      return styled.length > 0 ? `${location}: { ${styled.join(', ')} }` : '';
    })
    .filter(Boolean);
  return locations.length > 0 ? `writers: styledWriters({ ${locations.join(', ')} })` : '';
}

/**
 * Argument names for path parameters: camel-cased, `_` before a leading digit, numbered when two would be the same
 * or when one would be a word the other arguments use (`body`, `query`, `options`).
 */
function argumentNames(params: readonly string[]): { name: string; param: string }[] {
  const taken = new Set(['body', 'query', 'options']);
  return params.map((param) => {
    const camel = camelCase(param) || 'param';
    const base = isPlainName(camel) ? camel : `_${camel}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    return { name, param };
  });
}

/** `{ type: 'apiKey', in: 'query' }`: an object of strings as a literal. */
function objectLiteral(value: Readonly<Record<string, string>>): string {
  return `{ ${Object.entries(value)
    .map(([key, member]) => `${propertyName(key)}: ${literal(member)}`)
    .join(', ')} }`;
}
