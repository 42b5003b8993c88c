/**
 * Reading a JSON request body: text that is not JSON is 400 `malformed_json` saying why; valid JSON with a member
 * named `__proto__`, or a `constructor` member holding `prototype`, is 400 `invalid_request` naming where it is
 * (such members can change an object's prototype when code copies them, so they are refused, not dropped).
 */
import { HttpError } from './errors.js';

/** The `charset` parameter of a media type, quoted or not. */
export const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * The 400 for a JSON body declared in a charset other than UTF-8 (JSON is UTF-8, RFC 8259 §8.1; the bytes would be
 * read as UTF-8 all the same), or undefined when the charset is absent or UTF-8.
 */
export function charsetProblem(contentType: string | undefined): HttpError | undefined {
  const charset = CHARSET.exec(contentType ?? '')?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined;
  return new HttpError(400, 'invalid_request', `A JSON body must be UTF-8, not ${charset}.`, {
    data: [{ in: 'header', pointer: '/content-type', message: 'charset must be utf-8' }],
  });
}

/** Text that may hold a poisoning member name, written out or escaped: only such bodies are walked. */
const MAY_POISON = /__proto__|constructor|\\u/;

/** The body's JSON value; throws `HttpError` as described above. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? `: ${error.message.split('\n')[0]}` : '';
    throw new HttpError(400, 'malformed_json', `The body is not valid JSON${why}.`);
  }
  const pointer = MAY_POISON.test(text) ? poisonedMember(value) : undefined;
  if (pointer !== undefined) {
    const message = 'must not be named __proto__, nor be constructor.prototype';
    throw new HttpError(400, 'invalid_request', `The member at ${pointer} ${message}.`, {
      data: [{ in: 'body', pointer, message }],
    });
  }
  return value;
}

/** The JSON pointer of the first poisoning member in `root`, if any; iterative, so any depth is fine. */
function poisonedMember(root: unknown): string | undefined {
  const pending: [unknown, string][] = [[root, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, pointer] = next;
    if (value === null || typeof value !== 'object') continue;
    const isArray = Array.isArray(value);
    const children: [unknown, string][] = [];
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (!isArray && key === '__proto__') return at;
      if (!isArray && key === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child) {
        return `${at}/prototype`;
      }
      children.push([child, at]);
    }
    pending.push(...children.reverse());
  }
  return undefined;
}
