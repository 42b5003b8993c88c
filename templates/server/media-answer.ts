/**
 * A handler's answer body in its declared response media type (JSON is the plugin's own): text, bytes (`Buffer`,
 * `Uint8Array`, `ArrayBuffer`, string, `Blob` or a Node `Readable`), or an event stream of items.
 */
import { Readable } from 'node:stream';
import type { MediaKind } from '../shared/media.js';
import { eventStreamOf, isEventStreamItems } from './event-stream-answer.js';
import { SSE_HEADERS } from './sse.js';

/** What to send: the `content-type` (unless the handler set one), other headers, and the payload Fastify sends. */
export interface MediaAnswer {
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: string | Buffer | Readable;
}

/** Bytes any Node or web binary value holds. */
async function bytesOf(body: unknown): Promise<string | Buffer | Readable> {
  if (typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Readable) return body;
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return String(body);
}

/** A declared type with a wildcard (`image/*`) names no concrete type: bytes go as `application/octet-stream`. */
function concrete(contentType: string): string {
  return contentType.includes('*') ? 'application/octet-stream' : contentType;
}

/** The answer for a body of `kind` (any kind but JSON) declared as `contentType`; `check` sees each stream item. */
export async function mediaAnswer(
  kind: MediaKind,
  contentType: string,
  body: unknown,
  check?: (item: unknown) => void,
): Promise<MediaAnswer> {
  switch (kind) {
    case 'event-stream': {
      const { 'content-type': type = contentType, ...headers } = SSE_HEADERS;
      const items = isEventStreamItems(body) ? body : [body];
      return { contentType: type, headers, payload: eventStreamOf(items, check) };
    }
    case 'text': {
      const charset = /;\s*charset=/i.test(contentType) ? '' : '; charset=utf-8';
      return { contentType: `${contentType}${charset}`, headers: {}, payload: await bytesOf(body) };
    }
    default:
      return { contentType: concrete(contentType), headers: {}, payload: await bytesOf(body) };
  }
}
