/**
 * Emits `server.gen.ts`: the route table (one `RouteDefinition` per operation, wired to the precompiled
 * validators), a typed `Handlers` interface (one handler per operationId), and `registerRoutes`, which hands both
 * to the runtime's Fastify plugin.
 */
import type { StatementStructures } from 'ts-morph';
import type { Ir, IrOperation } from '../../ir/model.js';
import { schemaCodeNames } from '../../names.js';
import {
  bodySchemaName,
  type Components,
  componentsOf,
  parameterDecodings,
  partSchema,
  partSchemaName,
  type RequestPart,
  refName,
  responseSchemaName,
  validatedBodySchema,
  validatedResponseSchema,
} from '../../schema/operations.js';
import { answerContentType, routeParts } from '../../schema/route-parts.js';
import { headersType, operationType, paramsType, queryType, statusType, TYPES } from '../shared/operation-types.js';
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
import { answerBodyType, BODY_TYPE_NAMES, decodedHeadersType, requestBodyType } from './body-types.js';

const V = 'validators';

/** Builds the server stubs file. */
export function emitServer(ir: Ir): TypeScriptFile[] {
  const operations = [...ir.operations].sort((a, b) => a.id.localeCompare(b.id));
  const components = componentsOf(ir);
  const handlerTypes = operations.map((op) => handlerType(op, components));
  const bodyTypeNames = BODY_TYPE_NAMES.filter((name) =>
    handlerTypes.some((type) => new RegExp(`\\b${name}\\b`).test(type)),
  );
  const file: StatementStructures[] = [];
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: 'fastify',
    namedImports: ['FastifyInstance'],
    isTypeOnly: true,
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './runtime/server/index.js',
    namedImports: [
      ...bodyTypeNames,
      'CasiRequest',
      'CasiRoutesOptions',
      'HttpHandler',
      'RouteDefinition',
      'SessionRequest',
      'SseHandler',
      'WebSocketHandler',
    ],
    isTypeOnly: true,
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './runtime/server/index.js',
    namedImports: ['casiRoutes'],
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './types.gen.js',
    namespaceImport: TYPES,
    isTypeOnly: true,
  });
  file.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: './validators.gen.js', namespaceImport: V });
  file.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: './runtime/server/index.js' });
  addRoutes(file, ir, operations, schemaCodeNames(ir));
  addHandlers(file, operations, handlerTypes);
  addRegister(file, ir);
  return [emitTypeScript('src/server.gen.ts', file)];
}

/** `export const routes: readonly RouteDefinition[]`, one entry per operation, sorted by operationId. */
function addRoutes(
  file: StatementStructures[],
  ir: Ir,
  operations: readonly IrOperation[],
  code: ReadonlyMap<string, string>,
): void {
  const events = ir.events.some((e) => e.direction === 'server') ? `${V}.${validatorName('ServerEvent')}` : undefined;
  file.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      'Every operation of the spec: path, transport, security and the validators of each request part and response.',
    ],
    declarations: [
      {
        name: 'routes',
        type: 'readonly RouteDefinition[]',
        initializer: `[\n${operations.map((op) => routeLiteral(op, events, code, componentsOf(ir))).join(',\n')}\n]`,
      },
    ],
  });
}

/** One route's definition; `code` gives the code name of each component schema (for its validator's name). */
function routeLiteral(
  op: IrOperation,
  eventValidator: string | undefined,
  code: ReadonlyMap<string, string>,
  components: Components,
): string {
  const validatorOf = (name: string) => `${V}.${validatorName(code.get(name) ?? name)}`;
  const validators = (['params', 'query', 'headers', 'cookies'] as const satisfies readonly RequestPart[])
    .filter((part) => partSchema(op, part) !== undefined)
    .map((part) => `${part}: ${V}.${validatorName(partSchemaName(op, part))}`);
  const body = validatedBodySchema(op, components);
  if (body) validators.push(`body: ${validatorOf(refName(body) ?? bodySchemaName(op))}`);
  const responses = op.responses.map((r) => {
    const schema = validatedResponseSchema(op, r, components);
    const contentType = answerContentType(r);
    const parts = [
      ...(schema ? [`validator: ${validatorOf(refName(schema) ?? responseSchemaName(op, r))}`] : []),
      ...(contentType ? [`contentType: ${literal(contentType)}`] : []),
    ];
    return `${literal(r.status)}: { ${parts.join(', ')} }`;
  });
  const members = [
    ...Object.entries(routeParts(op, components)).map(([name, value]) => `${name}: ${valueLiteral(value)}`),
    `validators: { ${validators.join(', ')} }`,
    `responses: { ${responses.join(', ')} }`,
    ...(op.transport !== 'http' && eventValidator ? [`eventValidator: ${eventValidator}`] : []),
  ];
  return `  {\n${members.map((m) => `    ${m},`).join('\n')}\n  }`;
}

/** A plain value (strings, numbers, booleans, lists and objects of them) as TypeScript source. */
function valueLiteral(value: unknown): string {
  if (typeof value === 'string') return literal(value);
  if (Array.isArray(value)) return `[${value.map(valueLiteral).join(', ')}]`;
  if (value === null || typeof value !== 'object') return String(value);
  const members = Object.entries(value).map(
    ([key, member]) => `${key === '__proto__' ? "['__proto__']" : propertyName(key)}: ${valueLiteral(member)}`,
  );
  return `{ ${members.join(', ')} }`;
}

/** `export interface Handlers<Auth>`: one typed handler per operation, of the kind its transport needs. */
function addHandlers(file: StatementStructures[], operations: readonly IrOperation[], types: readonly string[]): void {
  file.push({
    kind: StructureKind.Interface,
    name: 'Handlers',
    isExported: true,
    typeParameters: [{ name: 'Auth', default: 'unknown' }],
    docs: [
      'One handler per operation: typed parameters, query, headers and body in; a typed status and body out.\n' +
        "An operation without one answers its sample: the spec's example, or a value of its schema.",
    ],
    properties: operations.map((op, index) => ({
      name: propertyName(op.id),
      isReadonly: true,
      hasQuestionToken: true,
      type: types[index],
      docs: [docText(`${op.method.toUpperCase()} ${op.path} — ${op.summary}`)],
    })),
  });
}

function handlerType(op: IrOperation, components: Components): string {
  const params = paramsType(op);
  const query = queryType(op);
  const headers =
    parameterDecodings(op, components).header === undefined ? headersType(op) : decodedHeadersType(op, components);
  if (op.transport === 'websocket') return `WebSocketHandler<SessionRequest<${params}, ${query}, ${headers}, Auth>>`;
  const cookies = op.parameters.cookie.length > 0 ? `, NonNullable<${operationType(op)}['parameters']['cookie']>` : '';
  const request = `CasiRequest<${params}, ${query}, ${headers}, ${requestBodyType(op) ?? 'undefined'}, Auth${cookies}>`;
  const results = op.responses
    .filter((r) => r.status !== '101' && !(op.transport === 'sse' && r.status === '200'))
    .map((r) => {
      const body = answerBodyType(op, r);
      return `{ readonly status: ${statusType(r.status)}; readonly body${body ? '' : '?'}: ${body ?? 'undefined'}; readonly headers?: Readonly<Record<string, string>> }`;
    });
  // An operation that declares no responses (OpenAPI 3.1 allows it) may answer anything.
  const result =
    results.length > 0
      ? results.join(' | ')
      : op.responses.length === 0
        ? '{ readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }'
        : 'never';
  return op.transport === 'sse' ? `SseHandler<${request}, ${result}>` : `HttpHandler<${request}, ${result}>`;
}

/** `registerRoutes(app, handlers, options)`: the runtime plugin with this spec's route table and version. */
function addRegister(file: StatementStructures[], ir: Ir): void {
  if (ir.serviceVersion !== undefined)
    file.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['The only `Service-Version` the routes accept.'],
      declarations: [{ name: 'SERVICE_VERSION', initializer: literal(ir.serviceVersion) }],
    });
  file.push({
    kind: StructureKind.Function,
    name: 'registerRoutes',
    isExported: true,
    typeParameters: [{ name: 'Auth', default: 'undefined' }],
    docs: ['Registers every route of the spec on `app` with `handlers`; see `casiRoutes` for the options.'],
    parameters: [
      { name: 'app', type: 'FastifyInstance' },
      { name: 'handlers', type: 'Handlers<Auth>' },
      {
        name: 'options',
        type: "Omit<CasiRoutesOptions<Handlers<Auth>, Auth>, 'routes' | 'handlers'>",
        initializer: '{}',
      },
    ],
    returnType: 'void',
    statements: `casiRoutes(app, { ${ir.serviceVersion === undefined ? '' : 'serviceVersion: SERVICE_VERSION, '}...options, routes, handlers });`,
  });
}
