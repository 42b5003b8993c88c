/**
 * A pass over the bundled ajv code: an `anyOf` stops trying its alternatives once one passes. Ajv2020 tries every
 * alternative of an `anyOf`, in both compilations, for `unevaluatedProperties`/`unevaluatedItems` (which read the
 * members every passing alternative evaluated); when one passes, the errors of all of them are dropped. Without
 * those keywords in the code (`withoutDeadState` checks), the alternatives after the first that passes change
 * nothing but the time spent.
 */

/** `validN = validN || _validK;`: the end of one alternative of an `anyOf`, at indentation `$1`. */
const ALTERNATIVE_END = /^(\s*)(valid\d+) = \2 \|\| (_valid\d+);$/;

/**
 * `esm` with every alternative of an `anyOf` after the first wrapped in `if (!validN) { … }`, where `validN`
 * says whether one of the previous ones passed. Fails when the code has an `unevaluated*` keyword.
 */
export function withAnyOfStoppingAtFirstPass(esm: string): string {
  if (/unevaluated(?:Properties|Items)|\$dynamicRef/.test(esm))
    throw new Error('an anyOf cannot stop at its first passing alternative when unevaluated* reads them all');
  const lines = esm.split('\n');
  const out: string[] = [];
  /** The `anyOf`s whose alternative being copied is wrapped: its indentation and `validN`. */
  const open: { indent: string; valid: string }[] = [];
  /** Copies lines, indented by the wraps they are in. */
  const copy = (...copied: string[]) => {
    const extra = '  '.repeat(open.length);
    out.push(...copied.map((line) => (line === '' ? line : extra + line)));
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    copy(line);
    const end = ALTERNATIVE_END.exec(line);
    if (!end) continue;
    const [, indent = '', valid = '', passed = ''] = end;
    // What ajv records for a passing alternative (`props0 = true`): copied with the alternative.
    if (lines[i + 1] === `${indent}if (${passed}) {`) {
      const close = lines.indexOf(`${indent}}`, i + 2);
      if (close === -1) throw new Error(`an anyOf alternative of unexpected form: ${lines.slice(i, i + 5).join('\n')}`);
      copy(...lines.slice(i + 1, close + 1));
      i = close;
    }
    const top = open.at(-1);
    if (top?.indent === indent && top.valid === valid) {
      open.pop();
      copy(`${indent}}`);
    }
    const next = lines[i + 1] ?? '';
    if (next.startsWith(`${indent}const _errs`) && /^\s*const _errs\d+ = errors;$/.test(next)) {
      copy(`${indent}if (!${valid}) {`);
      open.push({ indent, valid });
    } else if (next !== `${indent}if (!${valid}) {`) {
      throw new Error(`an anyOf of unexpected form in the bundled validators: ${lines.slice(i - 2, i + 3).join('\n')}`);
    }
  }
  if (open.length > 0) throw new Error('an anyOf alternative left open in the bundled validators');
  return out.join('\n');
}
