/**
 * Shrinking: when generated requests of an operation fail a check, fast-check runs the same property (that check
 * passes) on the request arbitrary and shrinks the failing request it finds, so the replay shown is a small one.
 */
import fc from 'fast-check';
import type { AnyRequest } from './requests.js';

/** An exchange the checks judged: which checks failed (with their problems). */
export interface Judged {
  readonly failed: ReadonlySet<string>;
}

/** Longest a search for a failing request and its shrinking may take, per check. */
const SHRINK_MS = 5_000;

/**
 * The smallest request fast-check finds (from `seed`, `runs` tries, then shrinking) that fails `check`, judged once
 * more; undefined when none fails within the tries.
 */
export async function shrunkFailure<T extends Judged>(
  arbitrary: fc.Arbitrary<AnyRequest>,
  judge: (request: AnyRequest) => Promise<T>,
  check: string,
  seed: number,
  runs: number,
): Promise<{ request: AnyRequest; judged: T } | undefined> {
  const property = fc.asyncProperty(arbitrary, async (request) => !(await judge(request)).failed.has(check));
  const details = await fc.check(property, { seed, numRuns: runs, interruptAfterTimeLimit: SHRINK_MS });
  const request = details.failed ? details.counterexample?.[0] : undefined;
  if (request === undefined) return undefined;
  return { request, judged: await judge(request) };
}
