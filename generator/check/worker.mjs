// Runs the `check` stage in a worker thread, so that the emitters work on the other core meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { loadSpecs } = await import('../load/index.ts');
const { checkSpecs } = await import('./index.ts');
try {
  const diagnostics = await checkSpecs(await loadSpecs(workerData.openapi, workerData.asyncapi));
  parentPort.postMessage({ diagnostics });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, diagnostics: error.diagnostics ?? [] } });
}
