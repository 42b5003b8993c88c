/**
 * Form fields into the body object the schema describes: `application/x-www-form-urlencoded` pairs, or the parts of
 * `multipart/form-data` (file parts stay `Blob`s). An array field gathers its repeated name, an object field is
 * JSON text, primitives are coerced; text that does not fit is kept, so that validation names the field.
 */
import { coerceScalar } from './query.js';
import type { ValueShape } from './route.js';

/** The body object of `entries` (name and value pairs in order), by the fields' declared shapes. */
export function fieldsToBody(
  entries: Iterable<readonly [string, string | Blob]>,
  fields: Readonly<Record<string, ValueShape>> = {},
): Record<string, unknown> {
  const body = Object.create(null) as Record<string, unknown>;
  for (const [name, raw] of entries) {
    const shape = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const value = typeof raw === 'string' ? fieldValue(raw, shape) : raw;
    const previous = body[name];
    if (shape !== undefined && 'items' in shape) body[name] = [...((previous as unknown[] | undefined) ?? []), value];
    else if (previous === undefined) body[name] = value;
    else body[name] = [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return body;
}

/** One text field as its shape wants it. */
function fieldValue(text: string, shape: ValueShape | undefined): unknown {
  if (shape === undefined) return text;
  if ('type' in shape) return coerceScalar(text, shape.type);
  if ('items' in shape) return coerceScalar(text, shape.items);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A form body's text as its body object. */
export function parseFormBody(text: string, fields?: Readonly<Record<string, ValueShape>>): Record<string, unknown> {
  return fieldsToBody(new URLSearchParams(text), fields);
}
