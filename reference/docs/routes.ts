/**
 * `/docs`: serves the HTML reference built by `npm run docs` (the `docs/` folder) as static files. When it is not
 * built, `/docs/` answers 404 with a page that says how to build it (nothing is built on demand).
 */
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { TOOLKIT_ROOT } from '../../generator/toolkit-root.js';

/** The folder `npm run docs` writes: `docs/` at the project root. */
export const DEFAULT_DOCS_DIR = join(TOOLKIT_ROOT, 'docs');

/** Options of `registerDocs`. */
export interface DocsRouteOptions {
  /** Where the built reference is. Default `DEFAULT_DOCS_DIR`. */
  readonly dir?: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A relative file name made of plain segments: no `..`, no hidden files, no backslashes. */
const SAFE_NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Registers `GET /docs` (a redirect to `/docs/`) and `GET /docs/<file>`. */
export function registerDocs(app: FastifyInstance, options: DocsRouteOptions = {}): void {
  const dir = resolve(options.dir ?? DEFAULT_DOCS_DIR);
  app.get('/docs', (_request, reply) => reply.redirect('/docs/'));
  app.get<{ Params: { '*': string } }>('/docs/*', async (request, reply) => {
    const name = request.params['*'] || 'index.html';
    const file = SAFE_NAME.test(name) ? join(dir, name) : null;
    const type = TYPES[extname(name)];
    if (file === null || type === undefined || !file.startsWith(dir + sep)) return missing(reply, dir, false);
    try {
      const body = await readFile(file);
      return reply
        .headers({ 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' })
        .send(body);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return missing(reply, dir, name === 'index.html');
    }
  });
}

/** 404 with a page: how to build the reference when its home page is missing, else "no such page". */
async function missing(reply: FastifyReply, dir: string, home: boolean): Promise<FastifyReply> {
  const built = home
    ? false
    : await readFile(join(dir, 'index.html')).then(
        () => true,
        () => false,
      );
  const message = built
    ? '<h1>No such page</h1><p>The reference has no page at this address. <a href="/docs/">Reference home</a>.</p>'
    : '<h1>The reference is not built yet</h1><p>Run <code>npm run docs</code> in the project, then reload this page. ' +
      'It writes the REST reference (Redoc) and the events reference into <code>docs/</code>.</p>';
  return reply
    .code(404)
    .headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CASI reference</title>` +
        `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:640px;margin:12vh auto;padding:0 20px;color:#1d2433}` +
        `code{background:#f3f4f8;padding:1px 5px;border-radius:4px}</style></head><body>${message}</body></html>`,
    );
}
