/** `withVerdictFirst`: the `allErrors` function of a schema with a check runs the check first. */
import { describe, expect, it } from 'vitest';
import { withVerdictFirst } from '../../generator/emit/validators/verdict-first.js';

/** A bundle of the two compilations of `Item` (`{ type: string }`, the full one counting its calls). */
const BUNDLE = [
  '// casi:full',
  'function validate2(data, instancePath = "") {',
  '  calls.push("full");',
  '  let vErrors = null;',
  '  if (typeof data !== "string") {',
  '    vErrors = [{ pointer: instancePath, message: "must be string", keyword: "type" }];',
  '  }',
  '  validate2.errors = vErrors;',
  '  return vErrors === null;',
  '}',
  'var validateItem = validate2;',
  '// casi:fast',
  'function validate7(data, instancePath = "") {',
  '  calls.push("check");',
  '  return typeof data === "string";',
  '}',
  'var checkItem = validate7;',
].join('\n');

/** The bundle's `validateItem`, and the calls it made. */
function load(code: string) {
  const calls: string[] = [];
  const validate = new Function('calls', `${code}\nreturn validateItem;`)(calls) as ((data: unknown) => boolean) & {
    errors: unknown;
  };
  return { validate, calls };
}

describe('withVerdictFirst', () => {
  it('puts the check at the start of the allErrors function of the same schema', () => {
    const lines = withVerdictFirst(BUNDLE).split('\n');
    expect(lines.slice(1, 7)).toEqual([
      'function validate2(data, instancePath = "") {',
      '  if (validate7(data)) {',
      '    validate2.errors = null;',
      '    return true;',
      '  }',
      '  calls.push("full");',
    ]);
    expect(lines.slice(6)).toEqual(BUNDLE.split('\n').slice(2));
  });

  it('lists issues only for a value the check refuses, the same ones as before', () => {
    const before = load(BUNDLE);
    const after = load(withVerdictFirst(BUNDLE));
    expect(after.validate('ok')).toBe(true);
    expect(after.validate.errors).toBeNull();
    expect(after.calls).toEqual(['check']);
    expect(after.validate(42)).toBe(false);
    expect(after.calls).toEqual(['check', 'check', 'full']);
    expect(before.validate(42)).toBe(false);
    expect(after.validate.errors).toEqual(before.validate.errors);
  });

  it('leaves code without checks as it is', () => {
    const fullOnly = BUNDLE.split('// casi:fast')[0] as string;
    expect(withVerdictFirst(fullOnly)).toBe(fullOnly);
  });

  it('fails on a check without its allErrors function, or one declared in another form', () => {
    expect(() => withVerdictFirst(BUNDLE.replace('var validateItem = validate2;', ''))).toThrow(
      /check of Item has no allErrors function/,
    );
    expect(() =>
      withVerdictFirst(BUNDLE.replace('function validate2(data, instancePath = "")', 'function validate2(data)')),
    ).toThrow(/allErrors function of Item \(validate2\) is not declared once/);
  });
});
