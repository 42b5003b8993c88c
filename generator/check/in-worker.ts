/** Runs the `check` stage in a worker thread; resolves with its diagnostics, rejects as the stage would. */
import { Worker } from 'node:worker_threads';
import { type Diagnostic, InputError } from '../diagnostics.js';

type Reply = { diagnostics: Diagnostic[] } | { error: { message: string; diagnostics: Diagnostic[] } };

/** Checks both files off the main thread. */
export function checkInWorker(openapi: string, asyncapi: string): Promise<Diagnostic[]> {
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
