/** `withLengthsCountedOnlyWhenNeeded`: `minLength`/`maxLength` count code points only when the length leaves it open. */
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { describe, expect, it } from 'vitest';
import { withLengthsCountedOnlyWhenNeeded } from '../../generator/emit/validators/lengths.js';
import { random } from '../generated/random.js';

type Count = (text: string) => number;
// CommonJS: the function is the default export, or that export's `default`, by loader.
const loaded = ucs2lengthModule as unknown as Count | { default: Count };
const ucs2length: Count = typeof loaded === 'function' ? loaded : loaded.default;
const BINDING = 'var func1 = require_ucs2length().default;';

describe('withLengthsCountedOnlyWhenNeeded', () => {
  it('tests the length in code units first', () => {
    const code = [BINDING, 'if (func1(data0) > 128) {', 'if (func1(data) < 3) {'].join('\n');
    expect(withLengthsCountedOnlyWhenNeeded(code).split('\n')).toEqual([
      BINDING,
      'if (data0.length > 128 && func1(data0) > 128) {',
      'if (data.length < 6 && func1(data) < 3) {',
    ]);
  });

  it('gives the verdict of the code point count on strings of every kind', () => {
    const code = withLengthsCountedOnlyWhenNeeded(
      [
        BINDING,
        'if (func1(data) < 3) { return "short"; }',
        'if (func1(data) > 4) { return "long"; }',
        'return "ok";',
      ].join('\n'),
    ).replace(BINDING, '');
    const check = new Function('func1', 'data', code) as (count: Count, data: string) => string;
    const next = random(3);
    const characters = ['a', '😀', '\uD83D', '\uDE00', 'é'];
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let i = Math.floor(next() * 10); i > 0; i--) text += characters[Math.floor(next() * characters.length)];
      const count = ucs2length(text);
      expect(check(ucs2length, text), JSON.stringify(text)).toBe(count < 3 ? 'short' : count > 4 ? 'long' : 'ok');
    }
  });

  it('refuses a count used in another way', () => {
    expect(() => withLengthsCountedOnlyWhenNeeded(`${BINDING}\nconst n = func1(data);`)).toThrow(/unexpected way/);
  });
});
