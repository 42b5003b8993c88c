/**
 * Unmatched requests: 405 `method_not_allowed` with `Allow` for a path some route of the instance serves (the
 * spec's, and any other registered after `casiRoutes`, such as a console), else 404 `route_not_found`.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { compilePath, pathOf } from './path.js';

/** Returns the error for a request that matched no route. */
export type NotFound = (method: string, url: string) => HttpError;

/** The methods the instance's routes allow on a path (`HEAD` wherever `GET`), sorted. */
export type AllowedMethods = (url: string) => string[];

/** Watches the routes registered on `app` from now on (WebSocket routes count as their `GET`). */
export function watchRoutes(app: FastifyInstance): AllowedMethods {
  const known: { method: string; matches: (path: string) => boolean }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const matches = matcherOf(route.url ?? route.path);
    for (const method of methods) known.push({ method: String(method).toUpperCase(), matches });
  });
  return (url) => {
    const path = pathOf(url);
    const methods = new Set(known.filter((k) => k.matches(path)).map((k) => k.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

/** Builds the responder from the routes' methods. */
export function notFound(allowedOn: AllowedMethods): NotFound {
  return (method, url) => {
    const path = pathOf(url);
    const allowed = allowedOn(url);
    if (allowed.length === 0) return new HttpError(404, 'route_not_found', `No endpoint has the path ${path}.`);
    const allow = allowed.join(', ');
    return new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow}.`, {
      headers: { allow },
    });
  };
}

/** A matcher of Fastify's path syntax: `:name` is one segment; a trailing `*` any rest of a literal prefix. */
function matcherOf(url: string): (path: string) => boolean {
  const wildcard = url.endsWith('*');
  const template = (wildcard ? url.slice(0, -1) : url).replace(/:([^/]+)/g, '{$1}');
  if (!wildcard) {
    const matcher = compilePath(template);
    return (path) => matcher.match(path) !== null;
  }
  return (path) => path.startsWith(template);
}
