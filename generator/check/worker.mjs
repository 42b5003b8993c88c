// Runs both document validators in a worker thread, so that they work beside the emitters on the other core (one
// worker, not two: a second costs more start-up than it saves on two cores). Each message is a job
// ({ id, openapi, asyncapi }) and gets one reply ({ id, diagnostics } or { id, error }); `generate --watch` keeps
// the worker for every regeneration, with the validators loaded. Plain JavaScript: the worker needs no TypeScript
// loader.
import { parentPort } from 'node:worker_threads';
import { enableCompileCache, flushCompileCache } from '../../bin/compile-cache.mjs';

// Before the validators load: their CommonJS modules then compile from the code cache.
enableCompileCache({ storeOnExit: false });
const { lintSpecs } = await import('./lint.mjs');
let flushed = false;

parentPort.on('message', async ({ id, openapi, asyncapi }) => {
  let reply;
  try {
    reply = { id, diagnostics: await lintSpecs(openapi, asyncapi) };
  } catch (error) {
    reply = { id, error: { message: error.message, diagnostics: error.diagnostics ?? [] } };
  }
  // Before the first reply: a worker that lints once is ended as soon as its reply arrives.
  if (!flushed) flushCompileCache();
  flushed = true;
  parentPort.postMessage(reply);
});
