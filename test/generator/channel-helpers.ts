/** Shared by the channel tests: corpus documents generated once under the project, and a loopback Fastify app. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
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
 */
export function corpusGenerator() {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const work = mkdtempSync(join(ROOT, 'tmp', 'channels-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const generations = new Map<string, ReturnType<typeof generateOnce>>();
  async function generateOnce(name: string) {
    const options = resolveOptions({ asyncapi: join(CORPUS, `${name}.asyncapi.yaml`), out: join(work, name) });
    const result = await generate(options);
    expect(hasErrors(result.diagnostics)).toBe(false);
    await writeOutput(options.out, result.files);
    return { ...result, out: options.out };
  }
  return (name: string) => {
    const known = generations.get(name) ?? generateOnce(name);
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
 * `register` and resolves to its port; each is closed after its test.
 */
export function loopbackApps() {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  return async (register: (app: FastifyInstance) => void): Promise<number> => {
    app = Fastify();
    register(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as AddressInfo).port;
  };
}
