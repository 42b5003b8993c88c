/**
 * What the Node transports (`rest-node.ts`, `sse-node.ts`) share: `node:http` / `node:https` taken from
 * `process.getBuiltinModule` (so no bundler resolves them), redirects followed as fetch follows them, and the
 * answer's headers and text. Their modules are loaded only where `hasNodeHttp()` holds, and import nothing of the
 * core at run time, so that a browser bundle keeps the core's modules together and never loads these.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/** `http.request` or `https.request`. */
export type RequestFunction = typeof import('node:http').request;

/** The request function for a URL's protocol; it throws for other protocols. */
export type RequestFor = (url: URL) => RequestFunction;

/** `node:http` / `node:https` by protocol (in Node only: see `hasNodeHttp`). */
export function nodeRequestFor(): RequestFor {
  const http = process.getBuiltinModule('node:http');
  const https = process.getBuiltinModule('node:https');
  return (url) => {
    if (url.protocol === 'http:') return http.request;
    if (url.protocol === 'https:') return https.request;
    throw new TypeError(`Unsupported protocol ${url.protocol}`);
  };
}

/** Redirects followed before giving up, as fetch does. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers fetch drops when a redirect leaves the origin. */
const CROSS_ORIGIN_DROPPED = ['authorization', 'proxy-authorization', 'cookie'];
/** Headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** A request as the Node transports send it: `headers` by lower-case name. */
export interface NodeRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: string | undefined;
}

/**
 * The request to send after `res`, when it is a redirect to follow (fetch's "follow" mode): a 303, and a 301 or
 * 302 answering a POST, become a GET without the body; leaving the origin drops the credentials. `undefined` when
 * `res` is not a redirect; throws once `redirects` (those followed so far) reaches fetch's limit.
 */
export function redirected(request: NodeRequest, res: IncomingMessage, redirects: number): NodeRequest | undefined {
  const location = res.headers.location;
  if (!REDIRECT_STATUSES.has(res.statusCode ?? 0) || location === undefined) return undefined;
  if (redirects === MAX_REDIRECTS) throw new TypeError('Too many redirects.');
  const url = new URL(location, request.url);
  const headers = { ...request.headers };
  if (url.origin !== request.url.origin) for (const name of CROSS_ORIGIN_DROPPED) delete headers[name];
  const status = res.statusCode;
  const toGet =
    (status === 303 && request.method !== 'GET' && request.method !== 'HEAD') ||
    ((status === 301 || status === 302) && request.method === 'POST');
  if (!toGet) return { ...request, url, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  return { url, method: 'GET', headers, body: undefined };
}

/** The response headers as a `Headers` (for `ApiError.headers`). */
export function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/** The whole body as UTF-8 text, as fetch's `text()` reads it; rejects when the connection closes before it ends. */
export function readText(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    // A byte order mark opening the body is not text (fetch's decoder drops it the same way).
    res.once('end', () => resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
    res.once('error', reject);
    res.once('close', () => reject(new Error('The connection closed before the body ended.')));
  });
}
