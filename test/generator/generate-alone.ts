/** Generates a package from one small hand-written document, as `casi generate --openapi F` (or `--asyncapi F`) does. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, onTestFinished } from 'vitest';
import { type Diagnostic, formatDiagnostic, InputError } from '../../generator/diagnostics.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { ROOT } from './helpers.js';

/**
 * A fresh directory under the project (so generated code resolves the project's packages), removed after the tests
 * of the file that asks for it.
 */
export function workDirectory(prefix: string): string {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const work = mkdtempSync(join(ROOT, 'tmp', `${prefix}-`));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  return work;
}

/**
 * Writes `document` as JSON into `work`, generates from it alone into `work/<name>`, and returns the written files,
 * the output directory and the diagnostics (formatted); with errors, no files and nothing written.
 */
export async function generateAlone(
  work: string,
  name: string,
  kind: 'openapi' | 'asyncapi',
  document: object,
): Promise<{ out: string; files: { path: string; content: string }[]; diagnostics: string[]; errors: boolean }> {
  const file = join(work, `${name}.${kind}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const out = join(work, name);
  const options = resolveOptions({ [kind]: file, out });
  let files: { path: string; content: unknown }[] = [];
  let diagnostics: readonly Diagnostic[];
  try {
    ({ files, diagnostics } = await generate(options));
  } catch (error) {
    // A document with errors: generate throws them, and writes nothing.
    if (!(error instanceof InputError)) throw error;
    diagnostics = error.diagnostics;
  }
  const errors = diagnostics.some((d) => d.severity === 'error');
  if (!errors) await writeOutput(out, files as Parameters<typeof writeOutput>[1]);
  return {
    out,
    files: files.map((f) => ({ path: f.path, content: String(f.content) })),
    diagnostics: diagnostics.map((d) => formatDiagnostic(d)),
    errors,
  };
}

/**
 * Serves the package generated into `out` with `handlers` (its server stubs on Fastify, over loopback, closed when
 * the calling test ends), and resolves with the address and the package's `createClient`.
 */
export async function serveGenerated<Client>(
  out: string,
  handlers: object,
): Promise<{ baseUrl: string; createClient: (options: object) => Client }> {
  const server = (await import(join(out, 'src/server.gen.ts'))) as {
    registerRoutes: (app: FastifyInstance, handlers: object, options: object) => void;
  };
  const app = Fastify();
  onTestFinished(() => app.close());
  server.registerRoutes(app, handlers, {});
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const client = (await import(join(out, 'src/client.gen.ts'))) as { createClient: (options: object) => Client };
  return { baseUrl, createClient: client.createClient };
}
