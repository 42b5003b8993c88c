/** `withAnyOfStoppingAtFirstPass`: the alternatives of an `anyOf` after one that passes are not tried. */
import { describe, expect, it } from 'vitest';
import { withAnyOfStoppingAtFirstPass } from '../../generator/emit/validators/any-of.js';

/** ajv's code for `anyOf: [{ type: string }, { type: null }]` at `data`, in allErrors mode (props recorded). */
const ANY_OF = [
  'function validate1(data) {',
  '  let vErrors = null;',
  '  let errors = 0;',
  '  const _errs0 = errors;',
  '  let valid0 = false;',
  '  const _errs1 = errors;',
  '  if (typeof data !== "string") {',
  '    errors++;',
  '  }',
  '  var _valid0 = _errs1 === errors;',
  '  valid0 = valid0 || _valid0;',
  '  if (_valid0) {',
  '    var props0 = true;',
  '  }',
  '  const _errs2 = errors;',
  '  if (data !== null) {',
  '    errors++;',
  '  }',
  '  var _valid0 = _errs2 === errors;',
  '  valid0 = valid0 || _valid0;',
  '  if (!valid0) {',
  '    errors++;',
  '  } else {',
  '    errors = _errs0;',
  '  }',
  '  return errors === 0;',
  '}',
];

describe('withAnyOfStoppingAtFirstPass', () => {
  it('wraps each alternative after the first in a test of the ones before', () => {
    expect(withAnyOfStoppingAtFirstPass(ANY_OF.join('\n')).split('\n')).toEqual([
      ...ANY_OF.slice(0, 14),
      '  if (!valid0) {',
      '    const _errs2 = errors;',
      '    if (data !== null) {',
      '      errors++;',
      '    }',
      '    var _valid0 = _errs2 === errors;',
      '    valid0 = valid0 || _valid0;',
      '  }',
      ...ANY_OF.slice(20),
    ]);
  });

  it('gives the same verdicts, and skips the alternatives after one passes', () => {
    const counted = (code: string) => {
      const calls: string[] = [];
      const run = new Function(
        'calls',
        `${code.replace('if (data !== null)', 'calls.push(1); if (data !== null)')}\nreturn validate1;`,
      )(calls) as (data: unknown) => boolean;
      return { run, calls };
    };
    const before = counted(ANY_OF.join('\n'));
    const after = counted(withAnyOfStoppingAtFirstPass(ANY_OF.join('\n')));
    for (const value of ['a', null, 1, {}]) expect(after.run(value), String(value)).toBe(before.run(value));
    expect(before.calls).toHaveLength(4);
    expect(after.calls).toHaveLength(3);
  });

  it('refuses code that reads every passing alternative, and an anyOf of another form', () => {
    expect(() => withAnyOfStoppingAtFirstPass('const x = "unevaluatedProperties";')).toThrow(/unevaluated/);
    const broken = [...ANY_OF.slice(0, 14), '  somethingElse();', ...ANY_OF.slice(14)];
    expect(() => withAnyOfStoppingAtFirstPass(broken.join('\n'))).toThrow(/unexpected form/);
  });
});
