/**
 * A pass over the bundled ajv code: `minLength`/`maxLength` count a string's code points (ajv's `ucs2length`, a
 * loop over the whole string) only when its length in code units leaves the verdict open. A string of `n` code
 * units has between `n / 2` and `n` code points, so `maxLength: N` holds whenever `n <= N`, and `minLength: N`
 * whenever `n >= 2N`: the usual string is decided without the loop.
 */

/** How ajv binds `ucs2length` in the bundle: `var func1 = require_ucs2length().default;`. */
const BINDING = /\bvar (func\d+) = require_ucs2length\(\)\.default;/g;

/**
 * `esm` with each `if (funcN(x) > N) {` / `if (funcN(x) < N) {` of ajv's `ucs2length` preceded by the test of
 * `x.length`. Fails when `ucs2length` is called in any other way.
 */
export function withLengthsCountedOnlyWhenNeeded(esm: string): string {
  const names = [...esm.matchAll(BINDING)].map((m) => m[1] as string);
  let code = esm;
  for (const name of new Set(names)) {
    code = code.replace(
      new RegExp(`\\bif \\(${name}\\((data\\d*)\\) ([<>]) (\\d+)\\) \\{`, 'g'),
      (_, data: string, comparison: string, limit: string) =>
        comparison === '>'
          ? `if (${data}.length > ${limit} && ${name}(${data}) > ${limit}) {`
          : `if (${data}.length < ${2 * Number(limit)} && ${name}(${data}) < ${limit}) {`,
    );
    const calls = code.split(`${name}(`).length;
    if (calls !== code.split(`&& ${name}(`).length)
      throw new Error(`ucs2length (${name}) used in an unexpected way in the bundled validators`);
  }
  return code;
}
