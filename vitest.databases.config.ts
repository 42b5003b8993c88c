/**
 * The suites whose in-process servers take their state from `CASI_TEST_DATABASE`, run again by
 * `npm run test:databases` as two projects: on the embedded database and on a throwaway PostgreSQL cluster.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** The end-to-end harness's files, the conformance files on the in-process target, and the emulator's unit suite. */
const SUITES = [
  'test/e2e/*.test.ts',
  'test/reference/{agents,auth-tokens,conversations,facade,phone,procedures,scripted-agent,sessions,streams,webhook}.test.ts',
  'test/conformance/{auth-matrix,contract,known-defects,load,rate-limit,slow-consumer,stateful,stream-faults}.test.ts',
];

export default defineConfig({
  test: {
    ...base.test,
    // Each project names its files (a project that extends the root adds the root's to its own).
    include: [],
    projects: (['embedded', 'postgres'] as const).map((kind) => ({
      extends: true,
      test: {
        name: kind,
        include: SUITES,
        // These run `casi serve` as a process, configured by their own environment.
        exclude: ['test/e2e/serve.test.ts', 'test/e2e/spec-edit-loop.test.ts'],
        env: { CASI_TEST_DATABASE: kind },
      },
    })),
  },
});
