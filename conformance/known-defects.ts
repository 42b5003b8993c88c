/**
 * Defects of the reference server found by this suite and not yet fixed (their code is outside test/). A failure
 * that matches one is counted as `known`, not `failed`; `known-defects.test.ts` reproduces each with `it.fails`, so
 * a fix makes that test fail until the entry is removed here.
 */
import type { Failure } from './report.js';

/** One pinned defect. */
export interface KnownDefect {
  readonly id: string;
  /** Where it is, what happens, and what is expected. */
  readonly description: string;
  /** Whether a recorded failure is this defect. */
  readonly matches: (failure: Failure) => boolean;
}

/** The defects pinned today. */
export const KNOWN_DEFECTS: readonly KnownDefect[] = [];
