/**
 * Sample calls of the generated client, from the IR: the argument values of an operation (path parameters from
 * their examples, else a placeholder of their type; the body from the request example) and the
 * `client.<resource>.<method>(…)` text. The package README and the HTML reference both use them, so that the two
 * name the same methods as the client.
 */

import { mediaKind } from '../../../templates/shared/media.js';
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
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  const prefix = typeof schema.pattern === 'string' ? /^\^([A-Za-z0-9_-]+)/.exec(schema.pattern)?.[1] : undefined;
  return prefix === undefined ? param.name : `${prefix}123`;
}

/** A schema's type, the first but `null` where it lists several. */
function typeOf(schema: JsonSchema): unknown {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/**
 * The value of a parameter as the generated method takes it: `parameterValue` for scalars, a one-item list for an
 * array (of its items' enum or type), and `{}` for an object.
 */
export function argumentValue(ir: Ir, op: IrOperation, param: IrParameter): unknown {
  const schema = resolved(ir, param.schema);
  if (typeOf(schema) === 'object') return {};
  if (typeOf(schema) !== 'array') return parameterValue(ir, op, param);
  const item = resolved(ir, obj(schema.items));
  const type = typeOf(item);
  if (Array.isArray(item.enum) && item.enum.length > 0) return [item.enum[0]];
  return [type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : param.name];
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
 * `client.<resource>.<method>(<path values>, <body>, <query>, <headers>, <cookies>, <options>)`: the arguments in
 * the order the generated method takes them. The query, header and cookie arguments hold their required members;
 * one with none is written as `{}` only where a later argument follows it.
 */
export function callText(ir: Ir, op: IrOperation, shape: CallShape = {}): string {
  const args = op.parameters.path.map((p) => tsValue(argumentValue(ir, op, p)));
  if (op.requestBody) args.push(shape.body ?? bodyText(ir, op, op.requestBody));
  const trailing: { text: string; needed: boolean }[] = [];
  if (op.transport === 'http') {
    const headers = op.parameters.header.filter(
      (p) => ir.serviceVersion === undefined || p.name.toLowerCase() !== 'service-version',
    );
    for (const params of [op.parameters.query, headers, op.parameters.cookie]) {
      if (params.length === 0) continue;
      const members = params.filter((p) => p.required).map((p) => [p.name, argumentValue(ir, op, p)] as const);
      trailing.push({ text: tsValue(Object.fromEntries(members)), needed: members.length > 0 });
    }
  }
  if (shape.options !== undefined) trailing.push({ text: shape.options, needed: true });
  const last = trailing.map((t) => t.needed).lastIndexOf(true);
  args.push(...trailing.slice(0, last + 1).map((t) => t.text));
  return `client.${memberAccess(op.resource)}.${memberAccess(op.methodName)}(${args.join(', ')})`;
}

/** The body argument: `new Blob([…])` for a binary body, else the request example or a value its schema allows. */
function bodyText(ir: Ir, op: IrOperation, body: NonNullable<IrOperation['requestBody']>): string {
  if (mediaKind(body.contentType) === 'binary') return "new Blob(['…'])";
  return tsValue(requestExample(ir, op) ?? schemaValue(ir, body.schema));
}

/**
 * A value `schema` allows, small: its example, default, const or first enum value, else the required members of an
 * object, an empty list, or a value of its type. References are followed a few levels deep.
 */
export function schemaValue(ir: Ir, schema: JsonSchema, depth = 0): unknown {
  const at = resolved(ir, schema);
  if (depth > 6) return {};
  const known = [at.example, Array.isArray(at.examples) ? at.examples[0] : undefined, at.default, at.const];
  const found = known.find((v) => v !== undefined);
  if (found !== undefined) return found;
  if (Array.isArray(at.enum) && at.enum.length > 0) return at.enum[0];
  const first = [at.oneOf, at.anyOf].find((list) => Array.isArray(list) && list.length > 0) as JsonSchema[] | undefined;
  if (first?.[0]) return schemaValue(ir, first[0], depth + 1);
  if (Array.isArray(at.allOf)) {
    return Object.assign({}, ...at.allOf.map((part) => obj(schemaValue(ir, part as JsonSchema, depth + 1))));
  }
  const type = typeOf(at);
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof at.minimum === 'number' ? at.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'string') return at.format === 'date-time' ? '2025-01-01T00:00:00Z' : 'string';
  const properties = obj(at.properties);
  const required = Array.isArray(at.required) ? at.required.filter((k): k is string => typeof k === 'string') : [];
  return Object.fromEntries(required.map((k) => [k, schemaValue(ir, obj(properties[k]), depth + 1)]));
}

/** `name`, or `['name']` where it is no identifier (the client's keys are written as `propertyName` writes them). */
function memberAccess(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `[${literal(name)}]`;
}

/**
 * Whether the generated method of `op` can be called with its path values alone: it takes no body, needs no query,
 * header or cookie, and has no object path parameter (whose members a sample cannot know).
 */
export function callableBare(ir: Ir, op: IrOperation): boolean {
  const required = (params: readonly IrParameter[]) => params.some((p) => p.required);
  return (
    !op.parameters.path.some((p) => typeOf(resolved(ir, p.schema)) === 'object') &&
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
