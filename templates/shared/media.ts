/**
 * How a body of a media type travels, for the generator, the client and the server alike: JSON, a form
 * (`application/x-www-form-urlencoded`), multipart form data, text, a Server-Sent Events stream, or bytes.
 */

/** The ways a body is encoded on the wire. */
export type MediaKind = 'json' | 'form' | 'multipart' | 'text' | 'event-stream' | 'binary';

/**
 * The kind of a media type (parameters such as `charset` ignored, case ignored): `application/json` and `+json`
 * types are JSON; `text/*` (but the event stream), XML and `+xml` types are text; `multipart/*` is multipart; any
 * other type (`application/octet-stream`, `image/png`, `*\/*`) is bytes.
 */
export function mediaKind(contentType: string): MediaKind {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || /^application\/[^/]*\+json$/.test(type)) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('multipart/')) return 'multipart';
  if (type === 'text/event-stream') return 'event-stream';
  if (type.startsWith('text/') || type === 'application/xml' || /^application\/[^/]*\+xml$/.test(type)) return 'text';
  return 'binary';
}
