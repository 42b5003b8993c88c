/**
 * Stage timing, and the start of the `check` stage's document validators: light modules only, so that a command
 * can start the validators before it loads the emitters (ts-morph, openapi-typescript, ajv), which then load while
 * the validators run in a worker thread.
 */
import { lintCache } from './check/cache.js';
import { lintInWorker } from './check/in-worker.js';
import type { Diagnostic } from './diagnostics.js';
import type { GenerateOptions } from './options.js';

/** Called after each stage with its name and duration. */
export type StageListener = (stage: string, ms: number) => void;

/** Runs one stage and reports its duration. */
export async function timed<T>(
  stage: string,
  onStage: StageListener | undefined,
  run: () => Promise<T> | T,
): Promise<T> {
  const start = performance.now();
  const result = await run();
  onStage?.(stage, performance.now() - start);
  return result;
}

/**
 * Starts Redocly and the AsyncAPI parser on both documents in a worker thread (`lint`: by default one of its own),
 * or takes their findings from the check cache when the documents are unchanged (the stage then reads
 * `check (cached)`). A rejection is also reported when the promise is awaited, so an early failure elsewhere leaves
 * no unhandled rejection.
 */
export function startLint(
  options: GenerateOptions,
  onStage?: StageListener,
  lint: (openapi: string, asyncapi: string) => Promise<readonly Diagnostic[]> = lintInWorker,
): Promise<readonly Diagnostic[]> {
  const cache = lintCache(options.openapi, options.asyncapi);
  const { cached } = cache;
  const linting = cached
    ? timed('check (cached)', onStage, () => cached)
    : timed('check', onStage, async () => {
        const diagnostics = await lint(options.openapi, options.asyncapi);
        cache.store(diagnostics);
        return diagnostics;
      });
  linting.catch(() => undefined);
  return linting;
}
