/** Runs the document validators in a worker thread; resolves with their diagnostics (to be completed by `completeCheck`). */
import { Worker } from 'node:worker_threads';
import { type Diagnostic, InputError } from '../diagnostics.js';

type Reply = { diagnostics: Diagnostic[] } | { error: { message: string; diagnostics: Diagnostic[] } };

/** Lints both files off the main thread; the OpenAPI diagnostics come first. */
export function lintInWorker(openapi: string, asyncapi: string): Promise<Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { openapi, asyncapi } });
    worker.once('message', (reply: Reply) => {
      void worker.terminate();
      if ('error' in reply) reject(new InputError(reply.error.message, reply.error.diagnostics));
      else resolve(reply.diagnostics);
    });
    worker.once('error', reject);
  });
}
