/**
 * Runs the document linters (Redocly, the AsyncAPI parser) in a worker thread, so that they load and lint on one
 * core while the emitters work on the other. From the TypeScript sources (tests), where the compiled worker entry
 * does not exist, they run in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics.js';
import { lintSpecs } from './lint.js';

const ENTRY = new URL('./lint-worker.js', import.meta.url);

/** Lints the documents given; the OpenAPI diagnostics come first. */
export function lintInWorker(openapi: string | undefined, asyncapi: string | undefined): Promise<Diagnostic[]> {
  if (!existsSync(fileURLToPath(ENTRY))) return lintSpecs(openapi, asyncapi);
  return new Promise((resolve, reject) => {
    const worker = new Worker(ENTRY);
    worker.once('message', (reply: { diagnostics: Diagnostic[] } | { error: string }) => {
      void worker.terminate();
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply.diagnostics);
    });
    worker.once('error', reject);
    worker.postMessage({ openapi, asyncapi });
  });
}
