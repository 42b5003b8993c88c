// Shared helpers of the benchmarks: timing of cold processes, statistics, and the RESULTS.md table format.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = resolve(ROOT, 'bench/RESULTS.md');

/** Runs `command` (argv array) `runs` times after one warm-up, in a fresh process each time; returns milliseconds. */
export function timeProcess(command, { runs = 5, cwd = ROOT } = {}) {
  timeOnce(command, { cwd });
  return Array.from({ length: runs }, () => timeOnce(command, { cwd }));
}

/** Runs a command once to completion and returns its wall time in ms; a non-zero exit throws with its stderr. */
export function timeOnce(command, { cwd = ROOT, env = process.env } = {}) {
  const start = performance.now();
  const result = spawnSync(command[0], command.slice(1), {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed (${result.status}): ${result.stderr}`);
  return ms;
}

/** CPU milliseconds (user + system) process `pid` has used, from Linux's /proc (NaN elsewhere). */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Median, minimum and maximum of a sample. */
export function stats(sample) {
  const sorted = [...sample].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/** Formats a number with a unit and sensible precision. */
export function fmt(value, unit) {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/**
 * Replaces (or appends) the section `id` of bench/RESULTS.md: a heading, a note, and a table of rows
 * `{ tool, median, range, ratio }`, with the command that reproduces it.
 */
export function writeSection(id, { title, note, rows, command, goal }) {
  let text;
  try {
    text = readFileSync(RESULTS, 'utf8');
  } catch {
    text =
      '# Benchmark results\n\nEach section is written by `npm run bench` (or the command it shows); ratios compare tools measured in the same run on the same machine.\n';
  }
  const machine = `${cpus().length} cores, Node ${process.version}`;
  const body = [
    `<!-- bench:${id} -->`,
    `## ${title}`,
    '',
    note,
    '',
    `Goal: ${goal}. Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; command: \`${command}\`.`,
    '',
    '| tool | median | min–max | ratio |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.tool} | ${r.median} | ${r.range} | ${r.ratio} |`),
    `<!-- /bench:${id} -->`,
  ].join('\n');
  const pattern = new RegExp(`<!-- bench:${id} -->[\\s\\S]*?<!-- /bench:${id} -->`);
  text = pattern.test(text) ? text.replace(pattern, body) : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(RESULTS, text);
}

/** Lets this process import the repository's TypeScript (generator, generated package, reference) through tsx. */
export async function registerTypeScript() {
  const { register } = await import('tsx/esm/api');
  register();
}

/** A RESULTS.md row: `tool`, the median and range of `sample` in `unit`, and the ratio `ratio` (a number). */
export function resultRow(tool, sample, unit, ratio) {
  const s = stats(sample);
  return {
    tool,
    median: fmt(s.median, unit),
    range: `${fmt(s.min, unit)} – ${fmt(s.max, unit)}`,
    ratio: `${ratio.toFixed(2)}×`,
  };
}

/**
 * Calls `fn(i)` with i = 0, 1, 2… for about `ms` milliseconds (at most `maxCalls` calls, checked every `batch`
 * calls) after `warmupMs` of warm-up; returns calls per second.
 */
export function opsPerSecond(fn, { ms = 250, warmupMs = 50, batch = 256, maxCalls = 50_000_000 } = {}) {
  const run = (budget) => {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < budget && calls < maxCalls) {
      for (let k = 0; k < batch; k++) fn(calls + k);
      calls += batch;
      elapsed = performance.now() - start;
    }
    return (calls / elapsed) * 1000;
  };
  run(warmupMs);
  return run(ms);
}

/** Like `opsPerSecond` for an async `fn`: awaits each call, one at a time; returns calls per second. */
export async function opsPerSecondAsync(fn, { ms = 250, warmupMs = 50, maxCalls = 10_000_000 } = {}) {
  const run = async (budget) => {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < budget && calls < maxCalls) {
      await fn(calls++);
      elapsed = performance.now() - start;
    }
    return (calls / elapsed) * 1000;
  };
  await run(warmupMs);
  return run(ms);
}

/** Runs a full garbage collection, so that one contender's garbage is not collected on the next one's time. */
export const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
})();

/**
 * Measures each of `contenders` (`{ name, fn }`) `rounds` times with `measure` (`opsPerSecond`, or
 * `opsPerSecondAsync` for async functions), round-robin so that machine noise falls on all of them alike: each
 * round starts one contender further along, and the heap is collected before each measurement. Resolves to
 * `{ name: samples[] }` in calls per second.
 */
export async function compareOps(contenders, { rounds = 7, ms = 250, measure = opsPerSecond } = {}) {
  const samples = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const { name, fn } = contenders[(round + k) % contenders.length];
      collectGarbage();
      samples[name].push(await measure(fn, { ms }));
    }
  }
  return samples;
}

/**
 * Runs `node <args>` `runs` times, each in a fresh process (after one warm-up run unless `warmup` is false), and
 * returns the JSON object each printed as its last stdout line.
 */
export function nodeJsonRuns(args, { runs = 7, warmup = true, cwd = ROOT, timeoutMs = 60_000 } = {}) {
  const once = () => {
    const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: timeoutMs });
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    const lines = result.stdout.trim().split('\n');
    return JSON.parse(lines[lines.length - 1]);
  };
  if (warmup) once();
  return Array.from({ length: runs }, once);
}

/** Folders of this process's bundles, removed when it exits. */
const bundleDirs = [];

/**
 * Bundles `entry` (TypeScript allowed) with esbuild into one ESM file under `bench/.build/` (inside the repository,
 * so that packages left external still resolve from node_modules) and returns its path: how the benchmarks load
 * generated code as a compiled package would run it (tsx's on-the-fly transform adds `__name` wrappers that slow
 * hot functions down). `packages: 'external'` leaves every package to node_modules; packages named in `stubs`
 * become empty modules (for code paths the entry never takes); `replace` gives some files (paths relative to the
 * root) other contents.
 */
export async function bundleForNode(entry, { external = [], stubs = [], packages, replace = {} } = {}) {
  const { build } = await import('esbuild');
  const { mkdirSync, mkdtempSync } = await import('node:fs');
  const dir = resolve(ROOT, 'bench/.build');
  mkdirSync(dir, { recursive: true });
  const bundleDir = mkdtempSync(resolve(dir, 'bundle-'));
  if (bundleDirs.length === 0) {
    process.once('exit', () => {
      for (const d of bundleDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  bundleDirs.push(bundleDir);
  const outfile = resolve(bundleDir, 'bundle.mjs');
  await build({
    entryPoints: [resolve(ROOT, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    ...(packages === undefined ? {} : { packages }),
    logLevel: 'error',
    plugins: [
      {
        name: 'stubs',
        setup(b) {
          if (stubs.length === 0) return;
          b.onResolve({ filter: /.*/ }, (args) =>
            stubs.includes(args.path) ? { path: args.path, namespace: 'stub' } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
        },
      },
      {
        name: 'replace',
        setup(b) {
          const replaced = new Map(Object.entries(replace).map(([path, contents]) => [resolve(ROOT, path), contents]));
          if (replaced.size === 0) return;
          b.onLoad({ filter: /.*/ }, (args) =>
            replaced.has(args.path)
              ? { contents: replaced.get(args.path), loader: 'ts', resolveDir: dirname(args.path) }
              : undefined,
          );
        },
      },
    ],
  });
  return outfile;
}

/**
 * Starts `node [nodeArgs] <script> <args>` as a child process and waits until a line of its stdout makes
 * `isReady(line)` return something other than undefined (default: the first line, parsed as JSON, e.g.
 * `{"port":1234}`); resolves to `{ ready, child, close }` with that value. Fails after `timeoutMs`, or when the
 * child exits first. Later output is drained and dropped.
 */
export async function startChild(script, args = [], options = {}) {
  const { env = {}, timeoutMs = 60_000, nodeArgs = [], isReady = (line) => JSON.parse(line) } = options;
  const { spawn } = await import('node:child_process');
  const { createInterface } = await import('node:readline');
  const child = spawn(process.execPath, [...nodeArgs, resolve(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const close = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${script} was not ready within ${timeoutMs} ms`)), timeoutMs);
    const onLine = (line) => {
      let value;
      try {
        value = isReady(line);
      } catch (error) {
        value = undefined;
        fail(error);
      }
      if (value === undefined) return;
      clearTimeout(timer);
      lines.off('line', onLine);
      done(value);
    };
    lines.on('line', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${script} exited (${code}) before it was ready`));
    });
  }).catch(async (error) => {
    await close();
    throw error;
  });
  return { ready, child, close };
}
