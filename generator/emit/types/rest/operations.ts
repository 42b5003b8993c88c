/**
 * The REST types of path items and operations, in the shape openapi-fetch reads: every method a member (`?: never`
 * when absent), each operation `{ parameters: { query, header, path, cookie }, requestBody, responses }`, operations
 * with an `operationId` in the `operations` interface.
 */
import { withDoc } from './comments.js';
import type { Context } from './context.js';
import {
  absent,
  factory,
  type Json,
  NEVER,
  pointerOf,
  property,
  refType,
  STRING,
  sortedEntries,
  stringIndex,
  type TypeElement,
  type TypeNode,
  UNKNOWN,
} from './nodes.js';
import { schemaType } from './schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const LOCATIONS = ['query', 'header', 'path', 'cookie'] as const;

/** A path item: its shared parameters and a member per method. */
export function pathItemType(pathItem: Json, context: Context, path: string): TypeNode {
  const members: TypeElement[] = [
    parametersMember(pathItem.parameters ?? [], context, pointerOf([path, 'parameters'])),
  ];
  for (const method of METHODS) {
    const operation = pathItem[method];
    if (!operation) {
      members.push(absent(method));
      continue;
    }
    const keyed = new Map<string, Json>();
    if (!('$ref' in operation)) {
      for (const parameter of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
        const resolved = '$ref' in parameter ? context.resolve(parameter.$ref) : parameter;
        keyed.set(`${resolved?.in}-${resolved?.name}`, parameter);
      }
    }
    const withParameters = { ...operation, parameters: [...keyed.values()] };
    const operationPath = pointerOf([path, method]);
    let type: TypeNode;
    if ('$ref' in operation) {
      type = refType(operation.$ref);
    } else if (operation.operationId) {
      const id = String(operation.operationId).replace(/#/g, '/');
      type = refType(pointerOf(['operations', id]));
      if (!context.footer.includes('operations')) context.footer.push('operations');
      context.operations.push(
        property(id, factory.createTypeLiteralNode(operationMembers(withParameters, context, operationPath))),
      );
    } else {
      type = factory.createTypeLiteralNode(operationMembers(withParameters, context, operationPath));
    }
    members.push(withDoc(operation, property(method, type)));
  }
  return factory.createTypeLiteralNode(members);
}

/** An operation's members: parameters, request body and responses. */
function operationMembers(operation: Json, context: Context, path: string): TypeElement[] {
  const members: TypeElement[] = [parametersMember(operation.parameters ?? [], context, path)];
  const body = operation.requestBody;
  if (body) {
    const isRef = '$ref' in body;
    const type = isRef ? refType(body.$ref) : requestBodyType(body, context, pointerOf([path, 'requestBody']));
    const required = !!(isRef ? context.resolve(body.$ref) : body)?.required;
    members.push(withDoc(body, property('requestBody', type, !required)));
  } else {
    members.push(absent('requestBody'));
  }
  members.push(property('responses', responsesType(operation.responses ?? {}, context, path)));
  return members;
}

/** `parameters: { query, header, path, cookie }`, each sorted by name; a location with none is `?: never`. */
function parametersMember(parameters: readonly Json[], context: Context, path: string): TypeElement {
  const listed = parameters
    .map((original) => ({ original, resolved: '$ref' in original ? context.resolve(original.$ref) : original }))
    .sort((a, b) => (a.resolved?.name ?? '').localeCompare(b.resolved?.name ?? ''));
  const locations = LOCATIONS.map((location) => {
    const members = listed
      .filter(({ resolved }) => resolved?.in === location)
      .map(({ original, resolved }) => {
        const optional = location !== 'path' && !resolved.required;
        const type =
          '$ref' in original
            ? refType(original.$ref, resolved)
            : parameterType(resolved, context, pointerOf([path, 'parameters', resolved.in, resolved.name]));
        return withDoc(resolved, property(String(resolved.name), type, optional));
      });
    const allOptional = members.every((member) => member.questionToken !== undefined);
    return property(location, members.length > 0 ? factory.createTypeLiteralNode(members) : NEVER, allOptional);
  });
  return property('parameters', factory.createTypeLiteralNode(locations));
}

/** A parameter's value: its schema's type, a string when it has none. */
export function parameterType(parameter: Json, context: Context, path: string): TypeNode {
  return parameter.schema ? schemaType(parameter.schema, context, path) : STRING;
}

/** `{ content: { [media type]: T } }` (`"*∕*"?: never` when no media type is given). */
export function requestBodyType(body: Json, context: Context, path: string): TypeNode {
  const members = sortedEntries(body.content).map(([mediaType, media]) => {
    const mediaPath = pointerOf([path, 'content', mediaType]);
    const type = '$ref' in media ? schemaType(media, context, mediaPath) : mediaTypeType(media, context, mediaPath);
    return withDoc(media, property(mediaType, type));
  });
  const content = members.length > 0 ? members : [absent('*/*')];
  return factory.createTypeLiteralNode([property('content', factory.createTypeLiteralNode(content))]);
}

/** `responses: { [status]: … }`, sorted by status; `never` when the operation lists none. */
function responsesType(responses: Json, context: Context, path: string): TypeNode {
  const members = sortedEntries(responses).map(([status, response]) => {
    const type =
      '$ref' in response
        ? refType(response.$ref)
        : responseType(response, context, pointerOf([path, 'responses', status]));
    return withDoc(response, property(status, type));
  });
  return members.length > 0 ? factory.createTypeLiteralNode(members) : NEVER;
}

/** `{ headers: { …; [name: string]: unknown }, content: { [media type]: T } }` (`content?: never` without a body). */
export function responseType(response: Json, context: Context, path: string): TypeNode {
  const headers: TypeElement[] = sortedEntries(response.headers).map(([name, header]) => {
    const optional = !('$ref' in header || header.required);
    const type =
      '$ref' in header ? refType(header.$ref) : headerType(header, context, pointerOf([path, 'headers', name]));
    return withDoc(header, property(name, type, optional));
  });
  headers.push(stringIndex('name', UNKNOWN));
  const members: TypeElement[] = [property('headers', factory.createTypeLiteralNode(headers))];
  const content = sortedEntries(response.content).map(([mediaType, media]) =>
    withDoc(media, property(mediaType, mediaTypeType(media, context, pointerOf([path, 'content', mediaType])))),
  );
  members.push(content.length > 0 ? property('content', factory.createTypeLiteralNode(content)) : absent('content'));
  return factory.createTypeLiteralNode(members);
}

/** A header's value: its schema's type, or a type per media type of its `content`. */
export function headerType(header: Json, context: Context, path: string): TypeNode {
  if (header.schema) return schemaType(header.schema, context, path);
  if (!header.content) return UNKNOWN;
  const members = sortedEntries(header.content).map(([mediaType, media]) => {
    const mediaPath = `${path}/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const type = '$ref' in media ? schemaType(media, context, mediaPath) : mediaTypeType(media, context, mediaPath);
    return withDoc(media, property(mediaType, type));
  });
  return factory.createTypeLiteralNode(members);
}

function mediaTypeType(media: Json, context: Context, path: string): TypeNode {
  return media.schema ? schemaType(media.schema, context, path) : UNKNOWN;
}
