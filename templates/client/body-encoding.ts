/**
 * Request bodies as their media type travels (see `mediaKind`): JSON text, form pairs, multipart `FormData`, text
 * or bytes as they are.
 */
import { mediaKind } from '../shared/media.js';

/** What a body of bytes may be given as (sent as it is). */
export type BinaryBody = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

/** A body ready for fetch, and the `content-type` to send with it (`undefined`: fetch sets it, as for multipart). */
export interface EncodedBody {
  readonly body: BodyInit;
  readonly contentType: string | undefined;
  /** Whether the body can be read only once (a stream), so a failed attempt cannot be sent again. */
  readonly once: boolean;
}

/** An item of a form or multipart body as text: primitives with `String`, objects as JSON. */
function fieldText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * The pairs of a form body: each defined member in member order; an array of primitives as the name repeated, an
 * object (or an array holding one) as its JSON text.
 */
function formPairs(body: object): URLSearchParams {
  const pairs = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && !value.some((item) => typeof item === 'object' && item !== null)) {
      for (const item of value) if (item !== undefined && item !== null) pairs.append(name, String(item));
    } else pairs.append(name, fieldText(value));
  }
  return pairs;
}

/** The parts of a multipart body: Blobs (and Files) as file parts, the rest as text parts; arrays repeat the name. */
function formData(body: object): FormData {
  const data = new FormData();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Blob) data.append(name, value);
    else data.append(name, fieldText(value));
  };
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) for (const item of value) add(name, item);
    else add(name, value);
  }
  return data;
}

/** Whether `value` is a body fetch sends as bytes. */
function isBinary(value: unknown): value is BinaryBody {
  return (
    value instanceof Blob ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof ReadableStream ||
    typeof value === 'string'
  );
}

/**
 * `body` encoded for `contentType`, the operation's declared request media type; a wrong kind of value throws what
 * `refuse` makes of the problem (the caller's error class: this module, loaded on demand, imports none of the core).
 */
export function encodeBody(body: unknown, contentType: string, refuse: (problem: string) => Error): EncodedBody {
  const wrongBody = (expected: string) => refuse(`A ${contentType} request body must be ${expected}.`);
  switch (mediaKind(contentType)) {
    case 'json':
      return { body: JSON.stringify(body), contentType, once: false };
    case 'form':
      if (typeof body !== 'object' || body === null) throw wrongBody('an object');
      return { body: formPairs(body).toString(), contentType, once: false };
    case 'multipart':
      if (body instanceof FormData) return { body, contentType: undefined, once: false };
      if (typeof body !== 'object' || body === null) throw wrongBody('an object or a FormData');
      return { body: formData(body), contentType: undefined, once: false };
    case 'text':
    case 'event-stream':
      if (typeof body !== 'string') throw wrongBody('a string');
      return { body, contentType, once: false };
    default:
      if (!isBinary(body)) throw wrongBody('a Blob, ArrayBuffer, typed array, ReadableStream or string');
      return { body: body as BodyInit, contentType, once: body instanceof ReadableStream };
  }
}
