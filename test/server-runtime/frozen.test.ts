/** `frozen.ts`: a frozen value's JSON and a validator's acceptance of it are computed once. */
import { describe, expect, it } from 'vitest';
import { accepts, isFrozenObject, jsonOf } from '../../templates/server/frozen.js';
import type { Validator } from '../../templates/shared/validation.js';

/** A value whose serialisation counts itself. */
function counted(frozen: boolean) {
  const counter = { calls: 0 };
  const value = {
    toJSON() {
      counter.calls++;
      return { n: 1 };
    },
  };
  return { value: frozen ? Object.freeze(value) : value, counter };
}

/** A validator accepting objects with `ok: true`, counting its calls. */
function countingValidator() {
  const calls: unknown[] = [];
  const validator = ((value: unknown) => {
    calls.push(value);
    const ok = (value as { ok?: unknown }).ok === true;
    validator.errors = ok ? null : [{ pointer: '/ok', message: 'must be true', keyword: 'const' }];
    return ok;
  }) as Validator<unknown>;
  validator.errors = null;
  return { validator, calls };
}

describe('frozen values', () => {
  it('tells frozen objects and arrays from the rest', () => {
    expect(isFrozenObject(Object.freeze({}))).toBe(true);
    expect(isFrozenObject(Object.freeze([]))).toBe(true);
    expect(isFrozenObject({})).toBe(false);
    expect(isFrozenObject('text')).toBe(false);
    expect(isFrozenObject(null)).toBe(false);
  });

  it('serialises a frozen value once, any other value every time', () => {
    const frozen = counted(true);
    expect([jsonOf(frozen.value), jsonOf(frozen.value)]).toEqual(['{"n":1}', '{"n":1}']);
    expect(frozen.counter.calls).toBe(1);
    const open = counted(false);
    jsonOf(open.value);
    jsonOf(open.value);
    expect(open.counter.calls).toBe(2);
    expect(jsonOf([1, 'a'])).toBe('[1,"a"]');
  });

  it('remembers what a validator accepted of frozen values only, and checks a refused one again', () => {
    const { validator, calls } = countingValidator();
    const good = Object.freeze({ ok: true });
    expect([accepts(validator, good), accepts(validator, good)]).toEqual([true, true]);
    expect(calls).toHaveLength(1);
    const bad = Object.freeze({ ok: false });
    expect([accepts(validator, bad), accepts(validator, bad)]).toEqual([false, false]);
    expect(validator.errors).toEqual([{ pointer: '/ok', message: 'must be true', keyword: 'const' }]);
    expect(calls).toHaveLength(3);
    const open = { ok: true };
    accepts(validator, open);
    accepts(validator, open);
    expect(calls).toHaveLength(5);
    // Another validator has its own verdicts.
    const other = countingValidator();
    expect(accepts(other.validator, good)).toBe(true);
    expect(other.calls).toEqual([good]);
  });
});
