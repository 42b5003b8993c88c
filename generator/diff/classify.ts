/**
 * Our classification of one change, from a client's point of view: the diff library's verdict, overruled where our
 * tolerant client reads responses and server events more leniently than the library assumes, and where the library
 * has no verdict (security requirements). README's table lists every rule; test/diff/rules.test.ts pins each one.
 */

export type Kind = 'breaking' | 'non-breaking';

/** One change as the library reports it, with `required` set when a member and its `required` entry changed together. */
export interface RawChange {
  readonly type: string;
  readonly action: 'add' | 'remove' | 'replace' | 'rename';
  readonly path: readonly (string | number)[];
  readonly before?: unknown;
  readonly after?: unknown;
  required?: boolean;
  /** Set on a parameter's removal and addition when it moved to another location (`in`) under the same name. */
  moved?: boolean;
}

/** Which way the data goes: written by the client (a request, a client event) or read by it. */
export type Direction = 'request' | 'response';

/**
 * The direction of the data at `path`, if the path is in a request or a response. A webhook's request is written by
 * the service and read by the client's receiver, so it counts as a response, and its response as a request.
 */
export function directionOf(path: readonly (string | number)[]): Direction | undefined {
  const flip = (d: Direction): Direction => (path[0] === 'webhooks' ? (d === 'request' ? 'response' : 'request') : d);
  if (path.includes('responses')) return flip('response');
  if (path.includes('requestBody') || path.includes('parameters')) return flip('request');
  return undefined;
}

/** Classifies `change`; see the module comment. */
export function classify(change: RawChange): Kind {
  const { path, action } = change;
  if (change.moved) return 'breaking';
  const library: Kind = change.type === 'breaking' ? 'breaking' : 'non-breaking';
  const security = path.lastIndexOf('security');
  if (security >= 0 && !path.includes('schema')) return securityKind(change, path.length - security - 1);
  if (path[0] === 'components' && path[1] === 'securitySchemes')
    return path.length === 3 && action === 'add' ? 'non-breaking' : 'breaking';
  if ((path[0] === 'paths' || path[0] === 'webhooks') && path.length === 3 && action !== 'replace')
    return action === 'remove' ? 'breaking' : 'non-breaking';
  const direction = directionOf(path);
  if (direction === undefined) return library;
  if (path.at(-2) === 'parameters' && typeof path.at(-1) === 'number' && action !== 'replace')
    return action === 'remove' || (change.after as { required?: unknown } | undefined)?.required === true
      ? 'breaking'
      : 'non-breaking';
  const last = path.at(-1);
  const parent = path.at(-2);
  if (last === 'type' && action === 'replace') return typeKind(direction, change.before, change.after);
  if (parent === 'enum') return enumKind(direction, action);
  if (parent === 'properties' && (action === 'add' || action === 'remove'))
    return memberKind(direction, action, change.required === true);
  if (parent === 'required' && (action === 'add' || action === 'remove'))
    return (action === 'add') === (direction === 'request') ? 'breaking' : 'non-breaking';
  return library;
}

/**
 * Security requirements are alternatives, each a set of schemes all needed: a new alternative or a scheme dropped
 * from one asks less of the client; a removed alternative, a scheme added to one, or any other change, more.
 */
function securityKind(change: RawChange, depth: number): Kind {
  if (depth === 1) return change.action === 'add' ? 'non-breaking' : 'breaking';
  if (depth === 2) return change.action === 'remove' ? 'non-breaking' : 'breaking';
  if (depth === 0 && change.action === 'remove') return 'non-breaking';
  return 'breaking';
}

/** A type change breaks a request when the new types do not cover the old, a response when they admit more. */
function typeKind(direction: Direction, before: unknown, after: unknown): Kind {
  const old = typeSet(before);
  const now = typeSet(after);
  const covers = (a: Set<string>, b: Set<string>) =>
    [...b].every((t) => a.has(t) || (t === 'integer' && a.has('number')));
  const ok = direction === 'request' ? covers(now, old) : covers(old, now);
  return ok ? 'non-breaking' : 'breaking';
}

function typeSet(value: unknown): Set<string> {
  return new Set((Array.isArray(value) ? value : [value]).map(String));
}

/** Enums: a removed value breaks a request; a response may gain values (the tolerant reader passes them through). */
function enumKind(direction: Direction, action: RawChange['action']): Kind {
  if (direction === 'response') return 'non-breaking';
  return action === 'add' ? 'non-breaking' : 'breaking';
}

/**
 * Members: a new required member breaks a request, and so does a removed one (clients still send it, and a strict
 * server refuses members it does not know); a response may gain members of any kind, and loses only optional ones
 * without breaking.
 */
function memberKind(direction: Direction, action: 'add' | 'remove', required: boolean): Kind {
  if (direction === 'request') return action === 'remove' || required ? 'breaking' : 'non-breaking';
  return action === 'remove' && required ? 'breaking' : 'non-breaking';
}
