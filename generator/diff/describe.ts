/** Words for a change: what part of an operation or event it touches (`response 200 member data[].direction`). */

type Path = readonly (string | number)[];

/** The operation (or view path) a change belongs to and the rest of its path. */
export interface Split {
  /** `['paths', '/pets', 'get']`, `['webhooks', 'x', 'post']`, or a shorter prefix for document-wide parts. */
  readonly head: Path;
  readonly rest: Path;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Splits a library path at its operation: `paths`/`webhooks`, the path or name, the method. */
export function splitAtOperation(path: Path): Split {
  if ((path[0] === 'paths' || path[0] === 'webhooks') && path.length >= 2) {
    const n = path.length >= 3 && METHODS.has(String(path[2])) ? 3 : 2;
    return { head: path.slice(0, n), rest: path.slice(n) };
  }
  const n = path[0] === 'components' ? Math.min(3, path.length) : 1;
  return { head: path.slice(0, n), rest: path.slice(n) };
}

/** How an OpenAPI head reads: `GET /pets`, `webhook newPet POST`, `security scheme apiKey`, `document security`. */
export function openapiSubject(head: Path): string {
  const [root, name, method] = head.map(String);
  if (root === 'paths') return method === undefined ? `path ${name}` : `${method.toUpperCase()} ${name}`;
  if (root === 'webhooks') return `webhook ${name}${method === undefined ? '' : ` ${method.toUpperCase()}`}`;
  if (root === 'components') return `${name === 'securitySchemes' ? 'security scheme' : name} ${String(head[2])}`;
  return `document ${root}`;
}

/** What partOf needs besides the path. */
export interface PartContext {
  /** The name and location of the parameter at an index (`limit (query)`). */
  readonly parameter: (index: number) => string;
  /** Whether the head is an event of the AsyncAPI view: its body is its `payload`. */
  readonly event: boolean;
  /** The value added or removed (an enum value, a `required` entry). */
  readonly value: unknown;
  /** Whether a member changed together with its `required` entry. */
  readonly required: boolean;
}

/** The part of the operation `rest` names, in words. */
export function partOf(rest: Path, context: PartContext): string {
  if (rest.length === 0) return context.event ? 'event' : 'operation';
  const [first, second] = rest;
  if (first === 'parameters' && typeof second === 'number') {
    const named = `parameter ${context.parameter(second)}`;
    if (rest.length === 2) return named;
    return joined(named, rest[2] === 'schema' ? schemaWords(rest.slice(3), context) : rest.slice(2).join('.'));
  }
  if (first === 'requestBody')
    return joined(context.event ? 'payload' : 'request body', bodyWords(rest.slice(1), context));
  if (first === 'responses' && second !== undefined)
    return joined(context.event ? 'payload' : `response ${second}`, bodyWords(rest.slice(2), context));
  if (first === 'security') return securityWords(rest.slice(1));
  return rest.map(String).join('.');
}

/** `scheme apiKey of requirement 1`: a part of a security requirement list (alternatives counted from 1). */
export function securityWords(rest: Path): string {
  const [index, scheme] = rest;
  if (typeof index !== 'number') return 'security requirements';
  const requirement = `security requirement ${index + 1}`;
  return scheme === undefined ? requirement : `scheme ${String(scheme)} of ${requirement}`;
}

function joined(part: string, words: string): string {
  return words === '' ? part : `${part} ${words}`;
}

/** `content/<media>/schema/...` read as schema words; anything else by its keys. */
function bodyWords(rest: Path, context: PartContext): string {
  if (rest[0] === 'content' && rest[2] === 'schema') return schemaWords(rest.slice(3), context);
  return rest.map(String).join('.');
}

/** A schema path in words: `member data[].direction`, `enum value "x" of status`, `required member id`. */
function schemaWords(rest: Path, { value, required }: PartContext): string {
  let member = '';
  let i = 0;
  for (; i < rest.length; i++) {
    const token = rest[i];
    const next = rest[i + 1];
    if (token === 'properties' && next !== undefined) {
      member = member === '' ? String(next) : `${member}.${String(next)}`;
      i++;
    } else if (token === 'items') member = `${member}[]`;
    else if ((token === 'allOf' || token === 'oneOf' || token === 'anyOf') && typeof next === 'number') i++;
    else break;
  }
  const tail = rest.slice(i);
  const of = member === '' ? '' : ` of ${member}`;
  if (tail.length === 0) return member === '' ? 'schema' : `${required ? 'required ' : ''}member ${member}`;
  if (tail[0] === 'required') return `required status${of}${typeof value === 'string' ? ` for ${value}` : ''}`;
  if (tail[0] === 'enum') return `enum value ${JSON.stringify(value)}${of}`;
  return `${tail.map(String).join('.')}${of}`;
}
