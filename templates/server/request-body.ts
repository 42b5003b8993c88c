/**
 * Bodies of routes that declare a media type other than JSON: the request's `content-type` must be the declared
 * one, else 415 `unsupported_media_type` naming it (JSON routes keep their 400 `invalid_request` "must be
 * application/json", the answer clients of JSON-only specs already know); then the bytes are decoded by kind:
 * form and multipart into objects, text into a string (in the declared charset), anything else kept as a `Buffer`.
 */
import { HttpError } from './errors.js';
import { parseFormBody } from './form-body.js';
import { CHARSET } from './json-body.js';
import { parseMultipartBody } from './multipart-body.js';
import type { RequestMedia, RouteDefinition } from './route.js';

/** A media type without parameters, lower-cased (`Text/Plain; charset=x` → `text/plain`). */
export function essence(contentType: string): string {
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether `contentType` is the declared type; a declared `*` part (`image/*`, `*\/*`) takes any. */
export function isDeclared(declared: string, contentType: string): boolean {
  const [type = '', subtype = ''] = essence(declared).split('/');
  const [gotType = '', gotSubtype = ''] = essence(contentType).split('/');
  return (type === '*' || type === gotType) && (subtype === '*' || subtype === gotSubtype);
}

/** The 415 for a body sent as another media type than the route declares. */
export function unsupportedMediaType(media: RequestMedia, contentType: string | undefined): HttpError {
  const sent = contentType === undefined ? 'without a content-type' : `as ${essence(contentType)}`;
  return new HttpError(415, 'unsupported_media_type', `The body must be ${media.type}, not sent ${sent}.`, {
    data: [{ in: 'header', pointer: '/content-type', message: `must be ${media.type}` }],
  });
}

/** Text in the charset `contentType` names (UTF-8 when none, or one the platform does not know). */
function textOf(bytes: Buffer | string, contentType: string): string {
  if (typeof bytes === 'string') return bytes;
  const charset = CHARSET.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/**
 * The media type a request's body is read as: one of the route's other declared types that `contentType` names, else
 * the route's own (undefined: JSON).
 */
export function sentMedia(route: RouteDefinition, contentType: string | undefined): RequestMedia | undefined {
  const other = contentType === undefined ? undefined : route.otherMedia?.find((m) => isDeclared(m.type, contentType));
  return other ?? route.requestMedia;
}

/** The body of a request to `route` as its handler gets it: JSON as Fastify parsed it, any other media decoded. */
export async function routeBody(
  route: RouteDefinition,
  contentType: string | undefined,
  body: unknown,
): Promise<unknown> {
  const media = sentMedia(route, contentType);
  return media === undefined || media.kind === 'json' ? body : decodeBody(media, contentType, body);
}

/**
 * The decoded body of a route with `media`, from what the content-type parser gave (`Buffer` or string); undefined
 * when none was sent. Throws the 415 above, or 400 for a multipart body that does not parse.
 */
export async function decodeBody(
  media: RequestMedia,
  contentType: string | undefined,
  body: unknown,
): Promise<unknown> {
  if (body === undefined) return undefined;
  if (contentType === undefined || !isDeclared(media.type, contentType)) throw unsupportedMediaType(media, contentType);
  const bytes = typeof body === 'string' || Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  switch (media.kind) {
    case 'form':
      return parseFormBody(textOf(bytes, contentType), media.fields);
    case 'multipart':
      return parseMultipartBody(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, contentType, media.fields);
    case 'text':
    case 'event-stream':
    case 'json':
      return textOf(bytes, contentType);
    case 'binary':
      return typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  }
}
