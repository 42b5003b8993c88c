/** Builds request URLs: percent-encoded path parameters (no dot segments), query strings, and `ws(s)://` forms. */
import { CasiError } from './errors.js';
import type { ParameterWriters } from './parameter-defaults.js';

/** Path and query parameters of one call, as openapi-fetch takes them. */
export interface UrlParams {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
}

const DOT_SEGMENT = /^\.{1,2}$/;

/** Refuses a path parameter value that would become a `.` or `..` segment, which URL parsers collapse. */
export function refuseDotSegment(name: string, value: string): void {
  if (DOT_SEGMENT.test(value)) {
    throw new CasiError(`Path parameter ${name} = ${JSON.stringify(value)} would change the path.`);
  }
}

const PATH_PARAMETER = /\{([^{}]+)\}/g;

/**
 * The absolute URL of `path` (an OpenAPI path template such as `/conversations/{id}`) under `baseUrl`: each path
 * parameter written by `writers` and percent-encoded, a whole segment `.` or `..` refused, and the query written by
 * `writers`. A `#…` suffix of the template, which some documents use to list one path twice, is not sent.
 */
export function urlWith(baseUrl: string, path: string, params: UrlParams, writers: ParameterWriters): string {
  const values = params.path ?? {};
  const hash = path.indexOf('#');
  const template = hash === -1 ? path : path.slice(0, hash);
  const pathname = template.replace(PATH_PARAMETER, (match: string, name: string, at: number) => {
    const value = values[name];
    if (value === undefined || value === null) throw new CasiError(`Path parameter ${name} is missing for ${path}.`);
    const text = writers.path(name, value);
    const end = at + match.length;
    if (template[at - 1] === '/' && (end === template.length || template[end] === '/')) refuseDotSegment(name, text);
    return text;
  });
  const query = params.query === undefined ? '' : writers.query(params.query);
  return `${baseUrl.replace(/\/+$/, '')}${pathname}${query ? `?${query}` : ''}`;
}

/** The same URL with `http:`/`https:` turned into `ws:`/`wss:` (`ws:`/`wss:` are kept). */
export function toWebSocketUrl(url: string | URL): URL {
  const result = new URL(url);
  if (result.protocol === 'http:') result.protocol = 'ws:';
  else if (result.protocol === 'https:') result.protocol = 'wss:';
  else if (result.protocol !== 'ws:' && result.protocol !== 'wss:') {
    throw new CasiError(`A WebSocket URL must use ws:, wss:, http: or https:, not ${result.protocol}`);
  }
  return result;
}

/** `url` with each defined entry of `query` set as a search parameter. */
export function withQuery(url: string | URL, query: Record<string, string | undefined>): URL {
  const result = new URL(url);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) result.searchParams.set(name, value);
  }
  return result;
}
