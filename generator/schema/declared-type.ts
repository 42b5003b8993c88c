import type { JsonSchema } from '../ir/model.js';

/**
 * The type a schema declares: a single `type`, or the first of a type list that is not `null` (`null` when that is
 * all), else the one its keywords imply (`properties`/`required` → object, `items` → array); undefined otherwise.
 */
export function declaredType(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null') ?? 'null';
  if (schema.properties !== undefined || schema.required !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}
