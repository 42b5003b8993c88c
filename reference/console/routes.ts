/**
 * `/console`: a web console of the reference server — the page, its stylesheet and script, and its small API under
 * `/console/api/`. Not part of the spec; the API is refused to anything but this machine's own console page, and
 * once the server listens beyond loopback it also takes an API key of the organisation it shows.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../generated/src/server.gen.js';
import { TOOLKIT_ROOT } from '../../generator/toolkit-root.js';
import { requireKey, requireWrite } from '../auth.js';
import { baseUrlOf } from '../http/base-url.js';
import { callService } from '../http/errors.js';
import type { ReferenceService } from '../service.js';
import { createBundler } from './bundle.js';
import { ConsoleService } from './console-service.js';
import { refusal } from './guard.js';

/** The page's own resources, in the toolkit's sources (`dist/` holds only compiled code). */
const ASSETS = {
  html: join(TOOLKIT_ROOT, 'reference/console/page/index.html'),
  css: join(TOOLKIT_ROOT, 'reference/console/page/console.css'),
};

/**
 * Only our own script, styles and connections (the stream over `fetch`, the session over WebSocket): the client's
 * validators are precompiled, so no `unsafe-eval` is needed.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Registers the console for the organisation `org` (the first of `CASI_API_KEYS`); `null` disables its API. With
 * `keyRequired` (the server listens beyond loopback, where other users' processes may reach this machine's
 * loopback too) its API answers only requests carrying `Authorization: Bearer` with a key of `org` (a `write` key
 * to create or open).
 */
export function registerConsole(
  app: FastifyInstance,
  service: ReferenceService,
  org: string | null,
  keyRequired = false,
): void {
  const consoleService = org === null ? null : new ConsoleService(service, org);
  const bundle = createBundler();
  const asset = (url: string, type: string) => {
    let text: Promise<string> | undefined;
    return async (_request: FastifyRequest, reply: FastifyReply) => {
      text ??= readFile(url, 'utf8');
      return send(reply, type, await text);
    };
  };
  const page = asset(ASSETS.html, 'text/html; charset=utf-8');
  app.get('/console', page);
  app.get('/console/', page);
  app.get('/console/console.css', asset(ASSETS.css, 'text/css; charset=utf-8'));
  app.get('/console/console.js', async (_request, reply) =>
    send(reply, 'text/javascript; charset=utf-8', await bundle()),
  );

  const api = () => {
    if (consoleService === null) throw new HttpError(403, 'forbidden', 'The console has no organisation to act for.');
    return consoleService;
  };
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const reason = refusal({
      remoteAddress: request.socket.remoteAddress,
      host: request.headers.host,
      origin: request.headers.origin,
      fetchSite: header(request, 'sec-fetch-site'),
    });
    if (reason !== null) throw new HttpError(403, 'forbidden', reason);
    if (keyRequired) await callService(() => checkKey(service, request, org));
  };
  app.get('/console/api/conversations', { onRequest }, () => callService(() => api().list()));
  app.post('/console/api/conversations', { onRequest }, (request) =>
    callService(() => api().create(baseUrlOf(request))),
  );
  app.post<{ Params: { id: string } }>('/console/api/conversations/:id/open', { onRequest }, (request) =>
    callService(() => api().open(request.params.id)),
  );
}

/** The console's key check: a key of `org`, `write` for a POST; 401 / 403 otherwise. */
async function checkKey(service: ReferenceService, request: FastifyRequest, org: string | null): Promise<void> {
  const principal = requireKey(await service.authenticate({ authorization: request.headers.authorization }));
  if (principal.org !== org)
    throw new HttpError(403, 'forbidden', `The console shows organisation ${org}: use a key of it.`);
  if (request.method !== 'GET') requireWrite(principal);
}

function send(reply: FastifyReply, type: string, body: string): FastifyReply {
  return reply
    .headers({
      'content-type': type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': CSP,
      'referrer-policy': 'no-referrer',
    })
    .send(body);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
