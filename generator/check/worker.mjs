// Runs both document validators in a worker thread, so that they work beside the emitters on the other core (one
// worker, not two: a second costs more start-up than it saves on two cores). Plain JavaScript: the worker needs no
// TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { lintSpecs } from './lint.mjs';

try {
  parentPort.postMessage({ diagnostics: await lintSpecs(workerData.openapi, workerData.asyncapi) });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, diagnostics: error.diagnostics ?? [] } });
}
