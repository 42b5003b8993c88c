/**
 * A worker thread's entry: lints the two documents it is sent and replies with the diagnostics; when the REST types
 * will be asked for, it then loads openapi-typescript and prints them on request (see protocol.ts).
 */
import { parentPort } from 'node:worker_threads';
import { lintSpecs } from '../check/lint.js';
import type { Reply, Request } from './protocol.js';

/** openapi-typescript's printer, loading since the lint ended. */
let rest: Promise<typeof import('../emit/types/rest.js')> | undefined;

parentPort?.on('message', async (request: Request) => {
  const reply = (answer: Reply) => parentPort?.postMessage(answer);
  try {
    if (request.kind === 'lint') {
      reply({ kind: 'lint', diagnostics: await lintSpecs(request.openapi, request.asyncapi, request.rules) });
      if (request.restTypes) rest = import('../emit/types/rest.js');
    } else {
      rest ??= import('../emit/types/rest.js');
      reply({ kind: 'rest-types', text: (await rest).restTypes(request.document) });
    }
  } catch (error) {
    reply({ kind: request.kind, error: error instanceof Error ? error.message : String(error) });
  }
});
