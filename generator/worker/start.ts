/**
 * Starts the worker thread of a command: the document linters (for generation the structure checks of both
 * documents; for `casi check` also Redocly and the AsyncAPI parser), and for generation the printing of the REST
 * types and of the emitters' TypeScript, run on one core while the emitters work on the other. From the TypeScript
 * sources (tests), where the compiled worker entry does not exist, the same work runs in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LintRules } from '../check/lint.js';
import type { Diagnostic } from '../diagnostics.js';
import type { EmittedFile } from '../emit/shared/files.js';
import type { TypeScriptFile } from '../emit/shared/ts.js';
import { type StageListener, timed } from '../stages.js';
import type { Reply, Request, Results } from './protocol.js';

const ENTRY = new URL('./entry.js', import.meta.url);

/** What the worker does for a command. */
export interface Helper {
  /** The linters' findings (timed as the `lint` stage); a rejection is also reported when it is awaited. */
  readonly linting: Promise<readonly Diagnostic[]>;
  /** The printers of generation; only when started with `emits`. */
  readonly printers: Printers;
  /** Ends the worker: what it has not answered yet is not awaited. */
  close(): void;
}

/** What prints the emitters' output (in the worker, or here). */
export interface Printers {
  /** The REST types of `document` (emit/types/rest.ts). */
  restTypes(document: unknown): Promise<string>;
  /** One TypeScript file (emit/shared/print.ts). */
  print(file: TypeScriptFile): Promise<EmittedFile>;
}

/**
 * Starts the linters on the documents given, with `rules` (see `LintRules`). A light module: a command starts them
 * before it loads the emitters, which then load while the worker lints. With `emits`, the worker then loads the
 * printers and stays until `close`.
 */
export function startHelper(
  documents: { openapi: string | undefined; asyncapi: string | undefined },
  rules: LintRules,
  onStage?: StageListener,
  emits = false,
): Helper {
  const ask = existsSync(fileURLToPath(ENTRY)) ? inWorker(emits) : { send: inThread, close: () => undefined };
  const linting = timed('lint', onStage, () => ask.send({ kind: 'lint', ...documents, rules, emits }));
  linting.catch(() => undefined);
  return {
    linting,
    printers: {
      restTypes: (document) => ask.send({ kind: 'rest-types', document }),
      print: (file) => ask.send({ kind: 'print', file }),
    },
    close: ask.close,
  };
}

/** The starts of `startHelper` that need no printers: `casi check`, validate, serve. */
export function startLint(
  documents: { openapi: string | undefined; asyncapi: string | undefined },
  rules: LintRules,
  onStage?: StageListener,
): Promise<readonly Diagnostic[]> {
  return startHelper(documents, rules, onStage).linting;
}

/** Sends a request and resolves with its result. */
type Send = <R extends Request>(request: R) => Promise<Results[R['kind']]>;

/** The worker thread; it ends after the lint unless generation follows (`emits`), else on `close`. */
function inWorker(emits: boolean): { send: Send; close(): void } {
  const worker = new Worker(ENTRY);
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  worker.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!emits) void worker.terminate();
    if ('error' in reply) pending?.reject(new Error(reply.error));
    else pending?.resolve(reply.result);
  });
  worker.once('error', (error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  });
  const send: Send = (request) => {
    const id = next++;
    const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    worker.postMessage({ id, request });
    return answer as Promise<Results[(typeof request)['kind']]>;
  };
  return { send, close: () => void worker.terminate() };
}

/** The same work in this thread. */
const inThread: Send = async (request) => {
  const answer = async (): Promise<unknown> => {
    if (request.kind === 'lint')
      return (await import('../check/lint.js')).lintSpecs(request.openapi, request.asyncapi, request.rules);
    if (request.kind === 'rest-types') return (await import('../emit/types/rest.js')).restTypes(request.document);
    return (await import('../emit/shared/print.js')).printTypeScript(request.file);
  };
  return (await answer()) as Results[(typeof request)['kind']];
};

/** The printers of this thread, for callers without a worker. */
export const printersHere: Printers = {
  restTypes: (document) => inThread({ kind: 'rest-types', document }),
  print: (file) => inThread({ kind: 'print', file }),
};
