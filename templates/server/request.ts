/**
 * Request validation: reads parameters back from their styles (and coerces the query), runs each part's validator
 * and reports every problem in one 400; path parameters first, whose problems are a 404 (the path names no resource).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Validator } from '../shared/validation.js';
import { invalidRequest, pathNamesNothing, type RequestPart, type RequestProblem } from './errors.js';
import { withoutBlobs } from './multipart-body.js';
import {
  decodeEach,
  decodeQuery,
  formDecode,
  percentDecode,
  rawCookiePairs,
  rawQueryPairs,
} from './parameter-styles.js';
import { compilePath, type PathMatcher, pathOf } from './path.js';
import { coerceQuery } from './query.js';
import { sentMedia } from './request-body.js';
import type { ParameterDecoding, RequestMedia, RouteDefinition } from './route.js';

/** The parts of a request before validation; `body` is undefined when none was sent. */
export interface UncheckedRequest {
  /** The request target as sent (path and query still percent-encoded), read for styled parameters. */
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: IncomingHttpHeaders;
  readonly body?: unknown;
}

/** The parts of a request after validation, each parameter decoded from its style into its schema's type. */
export interface CheckedRequest {
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  /** Cookie parameters, decoded; an empty object for routes that declare none. */
  readonly cookies: unknown;
  readonly body: unknown;
}

/** `application/json` and the `+json` types, with or without parameters (the JSON of `mediaKind`). */
const JSON_MEDIA_TYPE = /^application\/(json|[^/;\s]+\+json)\s*(;|$)/i;

/** The cookies of routes that declare no cookie parameter. */
const NO_COOKIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** Deepest nesting a JSON body may have; deeper bodies are refused before anything walks them recursively. */
export const MAX_BODY_DEPTH = 64;

/** The pointer of the first value nested deeper than `max` levels, or undefined (iterative: no recursion). */
export function tooDeep(value: unknown, max: number): string | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: '', depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return next.pointer;
    for (const [key, child] of Object.entries(next.value)) {
      const token = key.replace(/~/g, '~0').replace(/\//g, '~1');
      stack.push({ value: child, pointer: `${next.pointer}/${token}`, depth: next.depth + 1 });
    }
  }
  return undefined;
}

/**
 * Validates every part against the route's validators; throws 404 `not_found` when a path parameter breaks its
 * schema, else one `invalid_request` listing all problems.
 */
export function validateRequest(route: RouteDefinition, request: UncheckedRequest): CheckedRequest {
  const { validators } = route;
  const decodings = route.parameters;
  const params =
    decodings?.path === undefined
      ? request.params
      : decodeEach(request.params, decodings.path, encodedParams(route, request.url));
  const path: RequestProblem[] = [];
  check(path, 'path', validators.params, params);
  if (path.length > 0) throw pathNamesNothing(path);
  const query = coerceQuery(
    decodings?.query === undefined ? request.query : styledQuery(request.url, decodings.query),
    route.queryCoercion,
  );
  const headers = decodeEach(request.headers, decodings?.header);
  const cookies =
    validators.cookies === undefined
      ? NO_COOKIES
      : decodeQuery(rawCookiePairs(request.headers.cookie), decodings?.cookie ?? {}, percentDecode);
  const problems: RequestProblem[] = [];
  check(problems, 'query', validators.query, query);
  check(problems, 'header', validators.headers, headers);
  check(problems, 'cookie', validators.cookies, cookies);
  checkBody(problems, route, request);
  if (problems.length > 0) throw invalidRequest(problems);
  return { params, query, headers, cookies, body: request.body };
}

/** The path template of each route with styled path parameters, compiled once. */
const pathMatchers = new WeakMap<RouteDefinition, PathMatcher>();

/**
 * The path parameters as the request target carries them (still percent-encoded), so that styles split them before
 * decoding; undefined when the target does not fit the template as written (the router's decoded values are used).
 */
function encodedParams(route: RouteDefinition, url: string): Record<string, string> | undefined {
  let matcher = pathMatchers.get(route);
  if (matcher === undefined) {
    matcher = compilePath(route.path);
    pathMatchers.set(route, matcher);
  }
  return matcher.matchEncoded(pathOf(url)) ?? undefined;
}

/** The query of `url` read from its still-encoded text, each styled parameter split before it is decoded. */
function styledQuery(url: string, decodings: Readonly<Record<string, ParameterDecoding>>): Record<string, unknown> {
  const start = url.indexOf('?');
  return decodeQuery(start === -1 ? [] : rawQueryPairs(url.slice(start + 1)), decodings, formDecode);
}

function checkBody(problems: RequestProblem[], route: RouteDefinition, request: UncheckedRequest): void {
  const media = sentMedia(route, request.headers['content-type']);
  if (media !== undefined && media.kind !== 'json') {
    checkDecodedBody(problems, route, media, request.body);
    return;
  }
  const validator = route.validators.body;
  if (validator === undefined) return;
  if (request.body === undefined) {
    if (route.bodyRequired) problems.push({ in: 'body', pointer: '', message: 'a JSON body is required' });
    return;
  }
  const contentType = request.headers['content-type'];
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) {
    problems.push({ in: 'header', pointer: '/content-type', message: 'must be application/json' });
    return;
  }
  const deep = tooDeep(request.body, MAX_BODY_DEPTH);
  if (deep !== undefined) {
    problems.push({ in: 'body', pointer: deep, message: `must not nest deeper than ${MAX_BODY_DEPTH} levels` });
    return;
  }
  check(problems, 'body', validator, request.body);
}

/** A body `decodeBody` read from a non-JSON media type: present when required, valid (files counting as strings). */
function checkDecodedBody(
  problems: RequestProblem[],
  route: RouteDefinition,
  media: RequestMedia,
  body: unknown,
): void {
  if (body === undefined) {
    if (route.bodyRequired) problems.push({ in: 'body', pointer: '', message: `a ${media.type} body is required` });
    return;
  }
  const deep = tooDeep(body, MAX_BODY_DEPTH);
  if (deep !== undefined) {
    problems.push({ in: 'body', pointer: deep, message: `must not nest deeper than ${MAX_BODY_DEPTH} levels` });
    return;
  }
  check(problems, 'body', route.validators.body, media.kind === 'multipart' ? withoutBlobs(body) : body);
}

/** Adds the problems `validator` finds in `value` to `problems`. */
function check(
  problems: RequestProblem[],
  part: RequestPart,
  validator: Validator<unknown> | undefined,
  value: unknown,
): void {
  if (validator === undefined || validator(value)) return;
  const issues = validator.errors ?? [];
  if (issues.length === 0) problems.push({ in: part, pointer: '', message: `does not match ${validator.schemaName}` });
  for (const issue of issues) problems.push({ in: part, pointer: issue.pointer, message: issue.message });
}
