/** Shared by the channel tests: corpus documents generated once under the project, and a loopback Fastify app. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { afterAll, afterEach, expect } from 'vitest';
import { hasErrors } from '../../generator/check/index.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { ROOT } from './helpers.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');

/**
 * A generator of corpus AsyncAPI documents for one test file: each is generated once, under the project's `tmp/`
 * (so that the generated code resolves the project's packages: fastify, ws), removed after the file's tests.
 * `edit` derives a variant of the corpus document from its text (the variant is then named by `name`).
 */
export function corpusGenerator() {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const work = mkdtempSync(join(ROOT, 'tmp', 'channels-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const generations = new Map<string, ReturnType<typeof generateOnce>>();
  async function generateOnce(name: string, edit?: { from: string; change: (text: string) => string }) {
    let asyncapi = join(CORPUS, `${name}.asyncapi.yaml`);
    if (edit !== undefined) {
      asyncapi = join(work, `${name}.asyncapi.yaml`);
      writeFileSync(asyncapi, edit.change(readFileSync(join(CORPUS, `${edit.from}.asyncapi.yaml`), 'utf8')));
    }
    const options = resolveOptions({ asyncapi, out: join(work, name) });
    const result = await generate(options);
    expect(hasErrors(result.diagnostics)).toBe(false);
    await writeOutput(options.out, result.files);
    return { ...result, out: options.out };
  }
  return (name: string, edit?: { from: string; change: (text: string) => string }) => {
    const known = generations.get(name) ?? generateOnce(name, edit);
    generations.set(name, known);
    return known;
  };
}

/** Imports a generated module (`src/<file>`) of the package written to `out`. */
export function importGenerated(out: string, file: string): Promise<Record<string, unknown>> {
  return import(pathToFileURL(join(out, 'src', file)).href);
}

/**
 * Loopback apps for one test file: `serve(register)` starts a Fastify app on 127.0.0.1 (an OS port) set up by
 * `register` and resolves to its port; each is closed after its test. `options` are the apps' Fastify options.
 */
export function loopbackApps(options: FastifyServerOptions = {}) {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  return async (register: (app: FastifyInstance) => void): Promise<number> => {
    app = Fastify(options);
    register(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as AddressInfo).port;
  };
}
