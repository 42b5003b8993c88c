/**
 * Starts the worker thread of a command: the document linters (for generation the structure checks of both
 * documents; for `casi check` also Redocly and the AsyncAPI parser), and for generation the REST types, run on one
 * core while the emitters work on the other. From the TypeScript sources (tests), where the compiled worker entry
 * does not exist, the same work runs in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LintRules } from '../check/lint.js';
import type { Diagnostic } from '../diagnostics.js';
import { type StageListener, timed } from '../stages.js';
import type { Reply, Request } from './protocol.js';

const ENTRY = new URL('./entry.js', import.meta.url);

/** What the worker does for a command. */
export interface Helper {
  /** The linters' findings (timed as the `lint` stage); a rejection is also reported when it is awaited. */
  readonly linting: Promise<readonly Diagnostic[]>;
  /** openapi-typescript's REST types of `document` (emit/types/rest.ts); only when started with `restTypes`. */
  restTypes(document: unknown): Promise<string>;
  /** Ends the worker: what it has not answered yet is not awaited. */
  close(): void;
}

/**
 * Starts the linters on the documents given, with `rules` (see `LintRules`). A light module: a command starts them
 * before it loads the emitters, which then load while the worker lints. With `restTypes`, the worker then loads
 * openapi-typescript and stays until `close`.
 */
export function startHelper(
  documents: { openapi: string | undefined; asyncapi: string | undefined },
  rules: LintRules,
  onStage?: StageListener,
  restTypes = false,
): Helper {
  const helper = existsSync(fileURLToPath(ENTRY)) ? inWorker() : inThread();
  const lint: Request = { kind: 'lint', ...documents, rules, restTypes };
  const linting = timed('lint', onStage, () => helper.ask(lint) as Promise<Diagnostic[]>);
  linting.catch(() => undefined);
  return {
    linting,
    restTypes: (document) => helper.ask({ kind: 'rest-types', document }) as Promise<string>,
    close: helper.close,
  };
}

/** The starts of `startHelper` that need no REST types: `casi check`, validate, serve. */
export function startLint(
  documents: { openapi: string | undefined; asyncapi: string | undefined },
  rules: LintRules,
  onStage?: StageListener,
): Promise<readonly Diagnostic[]> {
  return startHelper(documents, rules, onStage).linting;
}

/** Sends requests and resolves each with its reply's result. */
interface Channel {
  ask(request: Request): Promise<unknown>;
  close(): void;
}

/** The worker thread; it ends after the lint unless REST types were asked for, else on `close`. */
function inWorker(): Channel {
  const worker = new Worker(ENTRY);
  const waiting = new Map<Request['kind'], { resolve(value: unknown): void; reject(error: Error): void }>();
  let keep = false;
  worker.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.kind);
    waiting.delete(reply.kind);
    if (!keep && reply.kind === 'lint') void worker.terminate();
    if ('error' in reply) pending?.reject(new Error(reply.error));
    else pending?.resolve('text' in reply ? reply.text : reply.diagnostics);
  });
  worker.once('error', (error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  });
  return {
    ask: (request) => {
      if (request.kind === 'lint') keep = request.restTypes;
      const answer = new Promise((resolve, reject) => waiting.set(request.kind, { resolve, reject }));
      worker.postMessage(request);
      return answer;
    },
    close: () => void worker.terminate(),
  };
}

/** The same work in this thread. */
function inThread(): Channel {
  return {
    ask: async (request) => {
      if (request.kind === 'lint')
        return (await import('../check/lint.js')).lintSpecs(request.openapi, request.asyncapi, request.rules);
      return (await import('../emit/types/rest.js')).restTypes(request.document);
    },
    close: () => undefined,
  };
}
