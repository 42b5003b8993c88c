/**
 * Form fields into the body object the schema describes: `application/x-www-form-urlencoded` pairs, or the parts of
 * `multipart/form-data` (file parts stay `Blob`s). An array field gathers its repeated name, an object field is
 * JSON text, primitives are coerced; text that does not fit is kept, so that validation names the field.
 */
import { HttpError } from './errors.js';
import { parseJsonBody } from './json-body.js';
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
    const value = typeof raw === 'string' ? fieldValue(name, raw, shape) : raw;
    const previous = body[name];
    if (shape !== undefined && 'items' in shape) body[name] = [...((previous as unknown[] | undefined) ?? []), value];
    else if (previous === undefined) body[name] = value;
    else body[name] = [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return body;
}

/**
 * One text field as its shape wants it. JSON fields are read as JSON bodies are: members that could change a
 * prototype are refused (400 naming them under the field), text that is not JSON is kept for validation to name.
 */
function fieldValue(name: string, text: string, shape: ValueShape | undefined): unknown {
  if (shape === undefined) return text;
  if ('type' in shape) return coerceScalar(text, shape.type);
  if ('items' in shape) return coerceScalar(text, shape.items);
  try {
    return parseJsonBody(text);
  } catch (error) {
    if (!(error instanceof HttpError) || error.code === 'malformed_json') return text;
    const field = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const problems = (error.body.data ?? []) as readonly { in: string; pointer: string; message: string }[];
    const data = problems.map((problem) => ({ ...problem, pointer: `${field}${problem.pointer}` }));
    throw new HttpError(400, 'invalid_request', `The member at ${data[0]?.pointer ?? field} ${data[0]?.message}.`, {
      data,
    });
  }
}

/** A form body's text as its body object. */
export function parseFormBody(text: string, fields?: Readonly<Record<string, ValueShape>>): Record<string, unknown> {
  return fieldsToBody(new URLSearchParams(text), fields);
}
