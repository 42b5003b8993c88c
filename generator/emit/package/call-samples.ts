/**
 * Sample calls of the generated client, from the IR: the argument values of an operation (path parameters from
 * their examples, else a placeholder of their type; the body from the request example) and the
 * `client.<resource>.<method>(…)` text. The package README and the HTML reference both use them, so that the two
 * name the same methods as the client.
 */

import type { Ir, IrOperation, IrParameter, JsonSchema } from '../../ir/model.js';
import { valueAt } from '../../load/refs.js';
import { literal, propertyName } from '../shared/ts.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The schema behind a local `$ref` (one step through `#/components/schemas/<Name>`), else the schema itself. */
function resolved(ir: Ir, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop() ?? '';
  return ir.schemas.find((s) => s.name === name)?.schema ?? schema;
}

/** The parameter object of `op` named `param` (the operation's own, else its path item's), `$ref`s followed. */
function parameterObject(ir: Ir, op: IrOperation, param: IrParameter): Obj {
  const itemPointer = op.pointer.slice(0, op.pointer.lastIndexOf('/'));
  const lists = [valueAt(ir.openapi, `${op.pointer}/parameters`), valueAt(ir.openapi, `${itemPointer}/parameters`)];
  for (const list of lists) {
    for (const entry of Array.isArray(list) ? list : []) {
      const found = deref(ir, entry);
      if (found.name === param.name && found.in === param.in) return found;
    }
  }
  return {};
}

/**
 * A scalar value for a parameter of `op`: its example (of the parameter, else of its schema), its first enum value, a
 * value its pattern's prefix fits, or one of its type.
 */
export function parameterValue(ir: Ir, op: IrOperation, param: IrParameter): string | number | boolean {
  const declared = parameterObject(ir, op, param);
  const declaredExample = Object.values(obj(declared.examples)).map((e) => deref(ir, e).value)[0];
  const schema = resolved(ir, param.schema);
  const examples = Array.isArray(schema.examples) ? schema.examples : [];
  const candidates = [declared.example, declaredExample, schema.example, examples[0]];
  for (const candidate of [...candidates, Array.isArray(schema.enum) ? schema.enum[0] : undefined]) {
    if (['string', 'number', 'boolean'].includes(typeof candidate)) return candidate as string | number | boolean;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  const prefix = typeof schema.pattern === 'string' ? /^\^([A-Za-z0-9_-]+)/.exec(schema.pattern)?.[1] : undefined;
  return prefix === undefined ? param.name : `${prefix}123`;
}

/** `node`, or what its local `$ref` points at. */
function deref(ir: Ir, node: unknown): Obj {
  const ref = obj(node).$ref;
  return typeof ref === 'string' && ref.startsWith('#/') ? obj(valueAt(ir.openapi, ref.slice(1))) : obj(node);
}

/**
 * The request body's example: the media type's `example`, else the first of its `examples`, else the body
 * schema's own `example` or first `examples`; undefined when there is none.
 */
export function requestExample(ir: Ir, op: IrOperation): unknown {
  const body = deref(ir, valueAt(ir.openapi, `${op.pointer}/requestBody`));
  const media = obj(obj(body.content)[op.requestBody?.contentType ?? '']);
  if (media.example !== undefined) return media.example;
  const first = Object.values(obj(media.examples))[0];
  if (first !== undefined) return deref(ir, first).value;
  const schema = resolved(ir, op.requestBody?.schema ?? {});
  return schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
}

/** A value as TypeScript source: JSON, with plain property names unquoted and strings in single quotes. */
export function tsValue(value: unknown, indent = ''): string {
  if (typeof value === 'string') return literal(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${tsValue(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${propertyName(k)}: ${tsValue(v, inner)},`).join('\n')}\n${indent}}`;
}

/** How a call is written: the body (undefined: the request example) and the trailing options, as source text. */
export interface CallShape {
  readonly body?: string;
  readonly options?: string;
}

/**
 * `client.<resource>.<method>(<path values>, <body>, …)`: the arguments in the order the generated method takes
 * them. Optional query, header and cookie arguments are written as `{}` only when options follow them.
 */
export function callText(ir: Ir, op: IrOperation, shape: CallShape = {}): string {
  const args = op.parameters.path.map((p) => tsValue(parameterValue(ir, op, p)));
  if (op.requestBody) args.push(shape.body ?? tsValue(requestExample(ir, op) ?? {}));
  const optional: string[] = [];
  if (op.transport === 'http') {
    if (op.parameters.query.length > 0) optional.push('{}');
    const headers = op.parameters.header.filter(
      (p) => ir.serviceVersion === undefined || p.name.toLowerCase() !== 'service-version',
    );
    if (headers.length > 0) optional.push('{}');
    if (op.parameters.cookie.length > 0) optional.push('{}');
  }
  if (shape.options !== undefined) args.push(...optional, shape.options);
  return `client.${memberAccess(op.resource)}.${memberAccess(op.methodName)}(${args.join(', ')})`;
}

/** `name`, or `['name']` where it is no identifier (the client's keys are written as `propertyName` writes them). */
function memberAccess(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `[${literal(name)}]`;
}

/** Whether the generated method of `op` can be called with its path values alone (it takes no body; no query, header or cookie is required). */
export function callableBare(op: IrOperation): boolean {
  const required = (params: readonly IrParameter[]) => params.some((p) => p.required);
  return (
    op.requestBody === undefined &&
    !required(op.parameters.query) &&
    !required(op.parameters.header.filter((p) => p.name.toLowerCase() !== 'service-version')) &&
    !required(op.parameters.cookie)
  );
}

/** The first server's URL with its variables set to their defaults, when it is absolute; else an example address. */
export function serverUrl(ir: Ir): string {
  const servers = Array.isArray(ir.openapi.servers) ? ir.openapi.servers : [];
  const server = obj(servers[0]);
  const variables = obj(server.variables);
  const url = String(server.url ?? '').replace(/\{([^}]+)\}/g, (_, name: string) =>
    String(obj(variables[name]).default ?? ''),
  );
  return /^https?:\/\/[^/]/.test(url) ? url.replace(/\/+$/, '') : 'https://api.example.com';
}
