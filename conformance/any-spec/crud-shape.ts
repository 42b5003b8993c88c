/**
 * The usual REST shape of a resource, where no `links` say how operations relate: a collection path with POST
 * (create) and GET (list), an item path one parameter below it with GET, PUT or PATCH, and DELETE. Also how a
 * created resource is named in its answer, and whether an answer holds the fields that were sent.
 */
import type { HttpMethod, Ir, IrOperation, JsonSchema } from '../../generator/ir/model.js';
import { mediaKind } from '../../templates/shared/media.js';
import { contains } from '../round-trip.js';
import type { WireResponse } from '../wire.js';
import { linksOf } from './links.js';
import type { SpecSchemas } from './schemas.js';

/** A resource of the REST shape: its create and item read, and the steps the spec declares besides. */
export interface CrudResource {
  readonly create: IrOperation;
  readonly read: IrOperation;
  /** The item path's last parameter: the created resource's name. */
  readonly param: string;
  readonly update?: IrOperation;
  readonly list?: IrOperation;
  readonly remove?: IrOperation;
}

/** The operation `method` on the item path of `collection` (`/things/{id}`), with the name of its last parameter. */
export function itemOperation(
  ops: readonly IrOperation[],
  collection: IrOperation,
  method: HttpMethod,
): { op: IrOperation; param: string } | undefined {
  const base = `${collection.path.replace(/\/$/, '')}/`;
  for (const op of ops) {
    const param = /^\{([^}/]+)\}$/.exec(op.path.slice(base.length))?.[1];
    if (op.method === method && op.path.startsWith(base) && op.parameters.path.some((p) => p.name === param))
      return { op, param: param as string };
  }
  return undefined;
}

/** The resources of `ops` in the REST shape whose create declares no links (the links are followed instead). */
export function crudResources(ir: Ir, ops: readonly IrOperation[]): CrudResource[] {
  const resources: CrudResource[] = [];
  for (const create of ops.filter((op) => op.method === 'post')) {
    const read = itemOperation(ops, create, 'get');
    if (read === undefined || linksOf(ir, create).length > 0) continue;
    const update = itemOperation(ops, create, 'put') ?? itemOperation(ops, create, 'patch');
    const list = ops.find((op) => op.method === 'get' && op.path === create.path);
    const remove = itemOperation(ops, create, 'delete');
    resources.push({
      create,
      read: read.op,
      param: read.param,
      ...(update && { update: update.op }),
      ...(list && { list }),
      ...(remove && { remove: remove.op }),
    });
  }
  return resources;
}

/** The created resource's name: the answer's member named as the item parameter, else `id`, else `Location`'s end. */
export function createdId(response: WireResponse, param: string): unknown {
  const body = response.json;
  if (isObject(body)) {
    if (isName(body[param])) return body[param];
    if (isName(body.id)) return body.id;
  }
  const location = response.headers.location;
  if (location === undefined) return undefined;
  const last = new URL(location, 'http://location.invalid').pathname.split('/').filter(Boolean).at(-1);
  return last === undefined ? undefined : decodeURIComponent(last);
}

/** The JSON members of a request body that a response schema declares (top level, through `$ref`s and `allOf`). */
export function sentFields(
  op: IrOperation,
  body: unknown,
  schemas: SpecSchemas,
  answer?: JsonSchema,
): [string, unknown][] {
  if (op.requestBody === undefined || mediaKind(op.requestBody.contentType) !== 'json' || !isObject(body)) return [];
  const declared = answer === undefined ? undefined : declaredProperties(schemas, answer);
  return Object.entries(body).filter(([name]) => declared === undefined || declared.has(name));
}

/**
 * The first of `fields` that `value` holds with another value (`/name sent …, read …`): the answer may add members
 * inside objects (defaults), and a top-level member it leaves out is no difference.
 */
export function differentField(fields: readonly [string, unknown][], value: unknown): string | undefined {
  if (!isObject(value)) return fields.length === 0 ? undefined : `the answer is not an object: ${short(value)}`;
  for (const [name, sent] of fields)
    if (name in value && !contains(value[name], sent))
      return `/${name} sent ${short(sent)}, read ${short(value[name])}`;
  return undefined;
}

/** How many of `fields` `value` holds, equal or not. */
export function heldFields(fields: readonly [string, unknown][], value: unknown): number {
  return isObject(value) ? fields.filter(([name]) => name in value).length : 0;
}

/** The items of a list answer: the array itself, or the one array member of an object; undefined otherwise. */
export function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  const arrays = Object.values(value).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Whether one of `items` is the created resource: its name under `param` or `id`, else every sent field equal. */
export function listHolds(items: readonly unknown[], id: unknown, param: string, fields: [string, unknown][]): boolean {
  return items.some((item) => {
    if (!isObject(item)) return false;
    const name = param in item ? item[param] : item.id;
    if (name !== undefined) return String(name) === String(id);
    return fields.length > 0 && differentField(fields, item) === undefined && heldFields(fields, item) > 0;
  });
}

/** The property names a schema declares at its top level (following `$ref`s, `allOf`, `oneOf` and `anyOf`). */
function declaredProperties(schemas: SpecSchemas, schema: JsonSchema, depth = 0): Set<string> {
  const names = new Set<string>();
  if (depth > 16) return names;
  const ref = typeof schema.$ref === 'string' ? /#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref !== undefined) return declaredProperties(schemas, schemas.resolve(decodeURIComponent(ref)), depth + 1);
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties))
    if (!(isObject(property) && property.writeOnly === true)) names.add(name);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts))
      for (const part of parts)
        if (isObject(part)) for (const name of declaredProperties(schemas, part, depth + 1)) names.add(name);
  }
  return names;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isName(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number';
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
