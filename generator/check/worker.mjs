// Runs both document validators in a worker thread, so that they work beside the emitters on the other core (one
// worker, not two: a second costs more start-up than it saves on two cores). Plain JavaScript: the worker needs no
// TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { enableCompileCache, flushCompileCache } from '../../bin/compile-cache.mjs';

// Before the validators load: their CommonJS modules then compile from the code cache.
enableCompileCache({ storeOnExit: false });
const { lintSpecs } = await import('./lint.mjs');
let reply;
try {
  reply = { diagnostics: await lintSpecs(workerData.openapi, workerData.asyncapi) };
} catch (error) {
  reply = { error: { message: error.message, diagnostics: error.diagnostics ?? [] } };
}
// Before replying: the main thread ends the worker as soon as the reply arrives.
flushCompileCache();
parentPort.postMessage(reply);
