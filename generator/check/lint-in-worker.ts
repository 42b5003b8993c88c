/**
 * Runs the document linters (for generation the structure checks of both documents; for `casi check` also Redocly
 * and the AsyncAPI parser) in a worker thread, so that they load and lint on one core while the emitters work on the
 * other. From the TypeScript sources (tests), where the compiled worker entry does not exist, they run in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics.js';
import { type StageListener, timed } from '../stages.js';
import type { LintRules } from './lint.js';

const ENTRY = new URL('./lint-worker.js', import.meta.url);

/**
 * Starts the linters on the documents given, with `rules` (see `LintRules`), timed as the `lint` stage. A light module: a command starts them before
 * it loads the emitters, which then load while the worker lints. A rejection is also reported when it is awaited.
 */
export function startLint(
  documents: { openapi: string | undefined; asyncapi: string | undefined },
  rules: LintRules,
  onStage?: StageListener,
): Promise<readonly Diagnostic[]> {
  const linting = timed('lint', onStage, () => lintInWorker(documents.openapi, documents.asyncapi, rules));
  linting.catch(() => undefined);
  return linting;
}

/** Lints the documents given; the OpenAPI diagnostics come first. */
export async function lintInWorker(
  openapi: string | undefined,
  asyncapi: string | undefined,
  rules: LintRules,
): Promise<Diagnostic[]> {
  if (!existsSync(fileURLToPath(ENTRY))) return (await import('./lint.js')).lintSpecs(openapi, asyncapi, rules);
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY);
    worker.once('message', (reply: { diagnostics: Diagnostic[] } | { error: string }) => {
      void worker.terminate();
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply.diagnostics);
    });
    worker.once('error', reject);
    worker.postMessage({ openapi, asyncapi, rules });
  });
}
