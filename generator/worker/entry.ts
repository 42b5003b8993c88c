/**
 * A worker thread's entry: lints the two documents it is sent and replies with the diagnostics; when generation
 * follows, it then loads ts-morph, and prints the REST types and the emitters' TypeScript
 * files on request (see protocol.ts).
 */
import { parentPort } from 'node:worker_threads';
import { lintSpecs } from '../check/lint.js';
import type { Request } from './protocol.js';

/** The printers, loading since the lint ended. */
let printers: Promise<[typeof import('../emit/types/rest.js'), typeof import('../emit/shared/print.js')]> | undefined;

function loadPrinters() {
  printers ??= Promise.all([import('../emit/types/rest.js'), import('../emit/shared/print.js')]);
  return printers;
}

parentPort?.on('message', async ({ id, request }: { id: number; request: Request }) => {
  try {
    parentPort?.postMessage({ id, result: await answer(request) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

/** The result of one request. */
async function answer(request: Request): Promise<unknown> {
  if (request.kind === 'lint') {
    const diagnostics = await lintSpecs(request.openapi, request.asyncapi, request.rules);
    if (request.emits) void loadPrinters();
    return diagnostics;
  }
  const [rest, print] = await loadPrinters();
  return request.kind === 'rest-types' ? rest.restTypes(request.document) : print.printTypeScript(request.file);
}
