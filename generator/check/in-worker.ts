/** Runs the document validators in a worker thread; resolves with their diagnostics (to be completed by `completeCheck`). */
import { Worker } from 'node:worker_threads';
import { type Diagnostic, InputError } from '../diagnostics.js';

type Reply = { id: number } & (
  | { diagnostics: Diagnostic[] }
  | { error: { message: string; diagnostics: Diagnostic[] } }
);

interface Pending {
  resolve(diagnostics: Diagnostic[]): void;
  reject(error: unknown): void;
}

/** A worker thread with the validators loaded, linting on request until it is closed. */
export class LintWorker {
  readonly #worker = new Worker(new URL('./worker.mjs', import.meta.url));
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  /** Why the worker can take no more jobs, once it has exited. */
  #gone: Error | undefined;

  constructor() {
    this.#worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if ('error' in reply) pending?.reject(new InputError(reply.error.message, reply.error.diagnostics));
      else pending?.resolve(reply.diagnostics);
    });
    this.#worker.on('error', (error) => this.#failAll(error));
    this.#worker.on('exit', (code) => {
      this.#gone = new Error(`the check worker exited (code ${code})`);
      this.#failAll(this.#gone);
    });
  }

  /** Lints both files; the OpenAPI diagnostics come first. */
  lint(openapi: string, asyncapi: string): Promise<Diagnostic[]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#gone) return reject(this.#gone);
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, openapi, asyncapi });
    });
  }

  /** Ends the worker; a lint still running rejects. */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }

  #failAll(error: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** Lints both files off the main thread, in a worker that ends with its reply. */
export async function lintInWorker(openapi: string, asyncapi: string): Promise<Diagnostic[]> {
  const worker = new LintWorker();
  try {
    return await worker.lint(openapi, asyncapi);
  } finally {
    void worker.close();
  }
}
