/**
 * A pass over the bundled ajv code: the `pattern` expressions whose meaning does not depend on the `u` flag are
 * built without it. ajv compiles every pattern with `u` (JSON Schema patterns are Unicode); V8 runs a unicode
 * expression with more checks.
 */

/** Characters that are syntax in a regular expression. */
const SYNTAX = '^$\\.*+?()[]{}|/-';

/**
 * Whether `source` matches the same strings with and without the `u` flag (no other flag set). Only a restricted
 * form is accepted: anchored at both ends (`^…$`), no alternation outside a group, and every atom a printable ASCII
 * character, an escaped syntax character, `\d`, `\w`, `\s`, or a class (not negated) of those and ASCII ranges;
 * groups `(…)` and `(?:…)`, alternation inside them, and the quantifiers `* + ? {n} {n,} {n,m}` (lazy or not).
 * Then each atom matches one code unit that is neither a surrogate nor part of an astral character, the same ones
 * in both modes. A string with a surrogate cannot be matched from end to end in either mode; one without has the
 * same code points as code units, where both modes mean the same. Anything else (`.`, `\p{…}`, `[^…]`, `\D`,
 * `\b`, backreferences, lookaround, `\u…`) is refused, rather than reasoned about.
 */
export function sameWithoutUnicodeFlag(source: string): boolean {
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) return false;
  const body = source.slice(1, -1);
  let depth = 0;
  let quantifiable = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\') {
      const next = body[++i];
      if (next === undefined || !('dws'.includes(next) || SYNTAX.includes(next))) return false;
      quantifiable = true;
    } else if (c === '[') {
      if (body[i + 1] === '^') return false;
      for (i++; body[i] !== ']'; i++) {
        const k = body[i];
        if (k === undefined || k === '[') return false;
        if (k === '\\') {
          const next = body[++i];
          if (next === undefined || !('dws'.includes(next) || SYNTAX.includes(next))) return false;
        } else if (!isPrintableAscii(k)) return false;
      }
      quantifiable = true;
    } else if (c === '(') {
      if (body[i + 1] === '?') {
        if (body[i + 2] !== ':') return false;
        i += 2;
      }
      depth++;
      quantifiable = false;
    } else if (c === ')') {
      if (depth === 0) return false;
      depth--;
      quantifiable = true;
    } else if (c === '|') {
      if (depth === 0) return false;
      quantifiable = false;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      if (!quantifiable) return false;
      if (c === '{') {
        const bound = /^\{\d+(?:,\d*)?\}/.exec(body.slice(i));
        if (!bound) return false;
        i += bound[0].length - 1;
      }
      if (body[i + 1] === '?') i++;
      quantifiable = false;
    } else if ('^$.]}'.includes(c) || !isPrintableAscii(c)) {
      return false;
    } else {
      quantifiable = true;
    }
  }
  return depth === 0;
}

function isPrintableAscii(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e;
}

/** How ajv's standalone code builds a pattern: `new RegExp("<source as JSON>", "u")`. */
const UNICODE_PATTERN = /\bnew RegExp\(("(?:[^"\\]|\\.)*"), "u"\)/g;

/** `esm` with each pattern that means the same without the `u` flag built without it (`sameWithoutUnicodeFlag`). */
export function withoutNeedlessUnicodeFlag(esm: string): string {
  return esm.replace(UNICODE_PATTERN, (expression: string, literal: string) =>
    sameWithoutUnicodeFlag(JSON.parse(literal) as string) ? `new RegExp(${literal}, "")` : expression,
  );
}
