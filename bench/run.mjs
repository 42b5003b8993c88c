// `npm run bench`: runs every benchmark (or those named as arguments) in sequence, each in its own process with
// its default settings; each rewrites its own section of bench/RESULTS.md. Usage: node bench/run.mjs [name…]
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './lib.mjs';

/** Every benchmark, in the order they run: its name is its script in bench/. */
const BENCHMARKS = [
  'generation',
  'corpus-generation',
  'validation',
  'startup',
  'client',
  'bundle-size',
  'emulator',
  'fanout',
  'history-read',
  'event-memory',
  'diff',
  'conformance',
];
/** Longest run of one benchmark before it is stopped. */
const TIMEOUT_MS = 30 * 60_000;

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.join(', ')}`);
  process.exit(2);
}

const failed = [];
for (const name of requested.length > 0 ? requested : BENCHMARKS) {
  console.log(`\n=== ${name} ===`);
  const start = performance.now();
  const result = spawnSync(process.execPath, [resolve(ROOT, `bench/${name}.mjs`)], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: TIMEOUT_MS,
  });
  const seconds = ((performance.now() - start) / 1000).toFixed(0);
  if (result.status === 0) console.log(`=== ${name}: done in ${seconds} s ===`);
  else {
    failed.push(name);
    console.error(`=== ${name}: FAILED (${result.error?.message ?? `exit ${result.status ?? result.signal}`}) ===`);
  }
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nbench/RESULTS.md is up to date.');
