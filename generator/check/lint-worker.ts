/** A worker thread's entry: lints the two documents it is sent and replies with the diagnostics, or the error. */
import { parentPort } from 'node:worker_threads';
import { type LintRules, lintSpecs } from './lint.js';

parentPort?.once(
  'message',
  async ({
    openapi,
    asyncapi,
    rules,
  }: {
    openapi: string | undefined;
    asyncapi: string | undefined;
    rules: LintRules;
  }) => {
    try {
      parentPort?.postMessage({ diagnostics: await lintSpecs(openapi, asyncapi, rules) });
    } catch (error) {
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  },
);
