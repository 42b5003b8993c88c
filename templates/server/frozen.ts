/**
 * Work done once per frozen value. A frozen object (or array) that a handler returns or a stream sends is taken
 * as immutable, deeply: its JSON, and a validator's acceptance of it, are kept for as long as the value lives.
 */
import type { Validator } from '../shared/validation.js';

/** Whether `value` is a frozen object or array (and so, by contract, immutable all the way down). */
export function isFrozenObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.isFrozen(value);
}

const json = new WeakMap<object, string>();

/** `JSON.stringify(value)`, computed once for a frozen value. */
export function jsonOf(value: unknown): string {
  if (!isFrozenObject(value)) return JSON.stringify(value);
  let text = json.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    json.set(value, text);
  }
  return text;
}

/** The frozen values each validator has accepted. */
const accepted = new WeakMap<Validator<unknown>, WeakSet<object>>();

/** `validator(value)`, remembered for a frozen value it accepts (a refused value is checked again, to report). */
export function accepts(validator: Validator<unknown>, value: unknown): boolean {
  if (!isFrozenObject(value)) return validator(value);
  let values = accepted.get(validator);
  if (values?.has(value)) return true;
  if (!validator(value)) return false;
  if (values === undefined) {
    values = new WeakSet();
    accepted.set(validator, values);
  }
  values.add(value);
  return true;
}
