/**
 * The helpers ajv's standalone code asks for with `require("ajv/dist/runtime/<name>").default`: the precompiled
 * validators import `ajvRuntime` under the name `require`, so they run as ES modules with no bundler and no ajv.
 */

/** A string's length in Unicode code points, as JSON Schema counts `minLength` and `maxLength` (ajv's `ucs2length`). */
function ucs2length(str: string): number {
  const length = str.length;
  let count = 0;
  let at = 0;
  while (at < length) {
    count++;
    const code = str.charCodeAt(at++);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && at < length && (str.charCodeAt(at) & 0xfc00) === 0xdc00) at++;
  }
  return count;
}

/** Deep equality of JSON values, for `const`, `enum` and `uniqueItems` (fast-deep-equal's, which ajv uses). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const other = b as unknown[];
      if (a.length !== other.length) return false;
      for (let i = a.length; i-- !== 0; ) if (!equal(a[i], other[i])) return false;
      return true;
    }
    if (a instanceof RegExp) return b instanceof RegExp && a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!Object.hasOwn(b, key)) return false;
    for (const key of keys)
      if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
    return true;
  }
  // Both NaN.
  return Number.isNaN(a) && Number.isNaN(b);
}

/** The helpers by the module ajv's code names. */
const HELPERS: Record<string, unknown> = {
  'ajv/dist/runtime/ucs2length': ucs2length,
  'ajv/dist/runtime/equal': equal,
};

/** The module `specifier` as ajv's standalone code reads it: `{ default: helper }`. */
export function ajvRuntime(specifier: string): { default: unknown } {
  const helper = HELPERS[specifier];
  if (helper === undefined) throw new Error(`the validators need ${specifier}, which this runtime does not have`);
  return { default: helper };
}

/** The modules `ajvRuntime` serves, so that the generator can refuse code that asks for another. */
export const AJV_RUNTIME_MODULES: readonly string[] = Object.keys(HELPERS);
