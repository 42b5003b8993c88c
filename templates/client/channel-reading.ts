/** How the channel clients read a received message: tolerantly, like the event reader, unless `strict`. */
import type { Validator } from '../shared/validation.js';
import { readEvent } from './event-reading.js';

/** Whether a validator takes a value: exactly (`strict`), or with members its schema does not name ignored. */
export function tolerant(strict: boolean): (validator: Validator<unknown>, value: unknown) => boolean {
  return (validator, value) => {
    try {
      return readEvent(validator, value, strict).known;
    } catch {
      return false;
    }
  };
}
