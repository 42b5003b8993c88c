/** Garbage collection on demand inside a test: V8's `gc`, exposed at run time. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** A full garbage collection. */
export const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Collects garbage a few times (letting pending work run in between), then aborts `controller`; resolves with what
 * `outcome` settled with, or `'pending'` when it has not within `waitMs`. Node's fetch follows the signal of a copy
 * of a Request: an original collected mid-flight would cut the link, and the abort would go unheard.
 */
export async function abortAfterCollections(
  controller: AbortController,
  outcome: Promise<unknown>,
  waitMs: number,
): Promise<unknown> {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  controller.abort();
  return Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('pending'), waitMs))]);
}
