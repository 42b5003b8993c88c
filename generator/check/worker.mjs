// Runs the document validators in a worker thread, so that the emitters work on the other core meanwhile. Plain
// JavaScript: the worker needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { lintSpecs } from './linters.mjs';

try {
  parentPort.postMessage({ diagnostics: await lintSpecs(workerData.openapi, workerData.asyncapi) });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, diagnostics: error.diagnostics ?? [] } });
}
