/** `/docs` on the reference server: the built pages as static files, a helpful page when they are not built. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { registerDocs } from '../../reference/docs/routes.js';

/** A GET with the path sent exactly as given (`fetch` would normalise `..`). */
function get(
  base: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; type: string; location: string; body: string }> {
  const url = new URL(base);
  return new Promise((done, fail) => {
    const req = request({ host: url.hostname, port: url.port, path, method, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          location: String(res.headers.location ?? ''),
          body,
        }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail).end();
  });
}

describe('registerDocs', () => {
  let dir = '';
  let built: FastifyInstance;
  let missing: FastifyInstance;
  let builtUrl = '';
  let missingUrl = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'casi-docs-serve-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>home</title>');
    writeFileSync(join(dir, 'events.html'), '<!doctype html><title>events</title>');
    writeFileSync(join(dir, '.hidden.html'), 'secret');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'site.css'), 'body{}');
    writeFileSync(join(dir, 'notes.txt'), 'not served');
    built = Fastify();
    registerDocs(built, { dir });
    builtUrl = await built.listen({ port: 0, host: '127.0.0.1' });
    missing = Fastify();
    registerDocs(missing, { dir: join(dir, 'does-not-exist') });
    missingUrl = await missing.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await built?.close();
    await missing?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects /docs to /docs/ so relative links work', async () => {
    const answer = await get(builtUrl, '/docs');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/docs/');
  });

  it.each([
    ['/docs/', 'text/html', 'home'],
    ['/docs/index.html', 'text/html', 'home'],
    ['/docs/events.html', 'text/html', 'events'],
    ['/docs/assets/site.css', 'text/css', 'body{}'],
  ])('serves %s', async (path, type, text) => {
    const answer = await get(builtUrl, path);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain(type);
    expect(answer.body).toContain(text);
  });

  it.each([
    ['a missing page', '/docs/nope.html'],
    ['a hidden file', '/docs/.hidden.html'],
    ['an unknown type', '/docs/notes.txt'],
    ['a parent folder', '/docs/../package.json'],
    ['an encoded parent folder', '/docs/%2e%2e/package.json'],
    ['an encoded separator', '/docs/..%2fpackage.json'],
  ])('answers 404 for %s', async (_name, path) => {
    const answer = await get(builtUrl, path);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('"name": "casi"');
    expect(answer.body).not.toContain('secret');
  });

  it('when the reference is not built, says how to build it', async () => {
    const answer = await get(missingUrl, '/docs/');
    expect(answer.status).toBe(404);
    expect(answer.type).toContain('text/html');
    expect(answer.body).toContain('npm run docs');
  });
});

describe('the reference server mounts /docs and /console beside the spec routes', () => {
  let server: App;
  let url = '';

  beforeAll(async () => {
    server = createApp({ config: loadConfig({ CASI_API_KEYS: 'sk_docs' }).config });
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => server?.close());

  it('serves /docs/ (the reference, or how to build it) and /console', async () => {
    const docs = await get(url, '/docs/');
    expect(docs.type).toContain('text/html');
    expect(docs.body).toMatch(/CASI reference|npm run docs/);
    const page = await get(url, '/console');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>CASI console</title>');
  });

  it.each([
    ['GET', '/nothing-here', 404, 'route_not_found'],
    ['POST', '/docs', 405, 'method_not_allowed'],
    ['POST', '/console', 405, 'method_not_allowed'],
    ['DELETE', '/console/api/conversations', 405, 'method_not_allowed'],
    ['DELETE', '/conversations', 405, 'method_not_allowed'],
  ])('keeps the spec error model: %s %s → %i %s', async (method, path, status, code) => {
    const answer = await get(url, path, method);
    expect(answer.status).toBe(status);
    expect(answer.type).toContain('application/json');
    expect(JSON.parse(answer.body).code).toBe(code);
  });
});
