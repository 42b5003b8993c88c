/**
 * Error answers in the shape the spec declares (option `errorShape: 'declared'`, for specs whose errors are not the
 * `Error` component): the operation's response closest to the failure, its media type, and the error's own body when
 * the response's schema accepts it, else the response's sample; a problem JSON (RFC 9457) where nothing is declared.
 */
import { STATUS_CODES } from 'node:http';
import { mediaKind } from '../shared/media.js';
import type { HttpError } from './errors.js';
import { accepts } from './frozen.js';
import type { ResponseDefinition, RouteDefinition } from './route.js';

/** What goes on the wire for an error: the status, headers, and a body with its media type (none: no body). */
export interface ErrorReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType?: string;
  readonly payload?: string;
}

/** The reply to `error` on `route` (undefined: no operation matched, as for an unknown path). */
export function declaredErrorReply(route: RouteDefinition | undefined, error: HttpError): ErrorReply {
  const key = route === undefined ? undefined : closestErrorResponse(route.responses, error.status);
  const declared = key === undefined ? undefined : route?.responses[key];
  if (key === undefined || declared === undefined) return problemReply(error);
  const status = /^\d{3}$/.test(key) ? Number(key) : error.status;
  const headers = error.headers;
  if (!('sample' in declared)) return { status, headers };
  const contentType = declared.contentType ?? 'application/json';
  const kind = mediaKind(contentType);
  if (kind === 'json') {
    const body = fits(declared, error.body) ? error.body : declared.sample;
    return { status, headers, contentType, payload: JSON.stringify(body) };
  }
  if (kind === 'text') {
    const text = typeof declared.sample === 'string' ? declared.sample : error.body.message;
    return { status, headers, contentType, payload: text };
  }
  return { status, headers };
}

/**
 * The declared response for a failure of `status`: the exact code, its range (`4XX`), the nearest declared code of
 * the same class, then `default`.
 */
export function closestErrorResponse(
  responses: Readonly<Record<string, ResponseDefinition>>,
  status: number,
): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  const declaredRange = Object.keys(responses).find((key) => key.toUpperCase() === range);
  if (declaredRange !== undefined) return declaredRange;
  const sameClass = Object.keys(responses)
    .filter((key) => /^\d{3}$/.test(key) && key[0] === exact[0])
    .sort((a, b) => Math.abs(Number(a) - status) - Math.abs(Number(b) - status) || Number(a) - Number(b));
  return sameClass[0] ?? ('default' in responses ? 'default' : undefined);
}

function fits(declared: ResponseDefinition, body: unknown): boolean {
  return declared.validator === undefined || accepts(declared.validator, body);
}

/** A problem JSON naming the status, with the error's message as its detail. */
function problemReply(error: HttpError): ErrorReply {
  const problem = {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
  };
  return {
    status: error.status,
    headers: error.headers,
    contentType: 'application/problem+json',
    payload: JSON.stringify(problem),
  };
}
