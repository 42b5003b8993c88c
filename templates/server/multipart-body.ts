/**
 * `multipart/form-data` bodies, read by the web platform's own parser (no extra dependency): parts become a body
 * object (file parts stay `Blob`s); validation sees a copy where each `Blob` is an empty string, since a file is
 * what a `string` schema (`format: binary`, `contentMediaType`) describes there.
 */
import { HttpError } from './errors.js';
import { fieldsToBody } from './form-body.js';
import type { ValueShape } from './route.js';

/** The body object of a multipart body; 400 `invalid_request` when the bytes are not multipart with that boundary. */
export async function parseMultipartBody(
  bytes: Uint8Array,
  contentType: string,
  fields?: Readonly<Record<string, ValueShape>>,
): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    // A Buffer's memory is an ArrayBuffer (never shared), as the web platform's body types ask.
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch (error) {
    const why = error instanceof Error ? `: ${error.message}` : '';
    throw new HttpError(400, 'invalid_request', `The body is not valid multipart/form-data${why}.`, {
      data: [{ in: 'body', pointer: '', message: 'must be multipart/form-data with the boundary of content-type' }],
    });
  }
  return fieldsToBody(form as unknown as Iterable<[string, string | Blob]>, fields);
}

/** `value` with every `Blob` (at the top or in an array member) replaced by `''`, for validation. */
export function withoutBlobs(value: unknown): unknown {
  if (value instanceof Blob) return '';
  if (Array.isArray(value)) return value.map(withoutBlobs);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [name, member] of Object.entries(value)) copy[name] = withoutBlobs(member);
  return copy;
}
