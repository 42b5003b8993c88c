/** Unmatched requests: 405 `method_not_allowed` with `Allow` for a known path, else 404 `route_not_found`. */
import { HttpError } from './errors.js';
import { compilePath, pathOf } from './path.js';
import type { RouteDefinition } from './route.js';

/** Returns the error for a request that matched no route. */
export type NotFound = (method: string, url: string) => HttpError;

/** The methods the route table allows on a path (websocket routes count as `GET`), sorted. */
export function allowedMethods(routes: readonly RouteDefinition[]): (url: string) => string[] {
  const matchers = routes.map((route) => ({ method: route.method, matcher: compilePath(route.path) }));
  return (url) => {
    const path = pathOf(url);
    return [...new Set(matchers.filter((m) => m.matcher.match(path) !== null).map((m) => m.method))].sort();
  };
}

/** Builds the responder from the route table (websocket routes count as `GET`). */
export function notFound(routes: readonly RouteDefinition[]): NotFound {
  const allowedOn = allowedMethods(routes);
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
