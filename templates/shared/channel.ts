/**
 * The description of an AsyncAPI channel that the generated client and server share, and how a message of it is told
 * apart: by its discriminating member's value where its messages have one, else by the first message it is valid as.
 */
import { ValidationError, type ValidationIssue } from './errors.js';
import type { SecurityScheme } from './security-scheme.js';
import type { Validator } from './validation.js';

/** The messages of one direction: validators by message name, and each key (a member value or a name) to its messages. */
export interface MessageSet {
  readonly validators: Readonly<Record<string, Validator<unknown>>>;
  readonly discriminator?: string;
  readonly keys: Readonly<Record<string, readonly string[]>>;
}

/** The JSON types a query member's text is read as. */
export type QueryMemberType = 'boolean' | 'integer' | 'number' | 'string';

/** One channel as the generated code describes it. Directions are the client's. */
export interface ChannelDescriptor {
  readonly name: string;
  /** The address, with `{parameter}`s. */
  readonly address: string;
  /** The URL of the document's server for it, when it names one. */
  readonly url?: string;
  /** The HTTP method of a stream channel (its `http` binding's; default GET). */
  readonly method?: string;
  /** The content type of a stream channel's messages: `text/event-stream` is SSE, any other JSON lines. */
  readonly contentType?: string;
  /** The schemes a connection may present its credential by, by name (any one suffices); none: no credential. */
  readonly security?: Readonly<Record<string, SecurityScheme>>;
  /** The messages the client receives (and the server sends). */
  readonly receive: MessageSet;
  /** The messages the client sends (and the server receives). */
  readonly send: MessageSet;
  /** The values each address parameter may take, where its schema lists them. */
  readonly parameters?: Readonly<Record<string, readonly string[]>>;
  /** The `ws` binding's headers: their validator and the names its schema gives them. */
  readonly headers?: { readonly validator: Validator<unknown>; readonly names: readonly string[] };
  /** The `ws` binding's query: its validator and the type of each member. */
  readonly query?: {
    readonly validator: Validator<unknown>;
    readonly types: Readonly<Record<string, QueryMemberType>>;
  };
}

/** A message told apart: its key and the name of the message it is. */
export interface ClassifiedMessage {
  readonly key: string;
  readonly name: string;
}

/**
 * The key and message of `value` in `set`, where `accepts` says a message's validator takes it. Throws
 * `ValidationError` naming the channel when none does.
 */
export function classify(
  channel: string,
  set: MessageSet,
  value: unknown,
  accepts: (validator: Validator<unknown>, value: unknown) => boolean,
): ClassifiedMessage {
  const member = set.discriminator;
  if (member !== undefined) {
    const tag = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[member] : undefined;
    const names = typeof tag === 'string' && Object.hasOwn(set.keys, tag) ? (set.keys[tag] ?? []) : [];
    if (names.length === 0) {
      const allowed = Object.keys(set.keys).join(', ');
      throw refused(channel, [{ pointer: `/${member}`, message: `must be one of ${allowed}`, keyword: 'enum' }]);
    }
    return { key: tag as string, name: first(channel, set, names, value, accepts) };
  }
  const name = first(channel, set, Object.keys(set.validators), value, accepts);
  return { key: name, name };
}

/** The first of `names` whose validator accepts `value`; else throws with the issues of the last one tried. */
function first(
  channel: string,
  set: MessageSet,
  names: readonly string[],
  value: unknown,
  accepts: (validator: Validator<unknown>, value: unknown) => boolean,
): string {
  let issues: readonly ValidationIssue[] = [];
  for (const name of names) {
    const validator = set.validators[name];
    if (validator === undefined) continue;
    if (accepts(validator, value)) return name;
    issues = validator.errors ?? [];
  }
  if (names.length === 0)
    issues = [{ pointer: '', message: 'no message goes this way on this channel', keyword: 'not' }];
  throw refused(channel, issues);
}

function refused(channel: string, issues: readonly ValidationIssue[]): ValidationError {
  return new ValidationError(`a message of the channel ${channel}`, issues);
}

/** Parses a text frame as JSON, or throws `ValidationError` saying it is not JSON. */
export function parseFrame(channel: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw refused(channel, [{ pointer: '', message: 'is not JSON', keyword: 'json' }]);
  }
}
