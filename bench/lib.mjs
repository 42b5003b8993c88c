// Shared helpers of the benchmarks: timing of cold processes, statistics, and the RESULTS.md table format.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = resolve(ROOT, 'bench/RESULTS.md');

/** Runs `command` (argv array) `runs` times after one warm-up, in a fresh process each time; returns milliseconds. */
export function timeProcess(command, { runs = 5, cwd = ROOT } = {}) {
  const once = () => {
    const start = performance.now();
    const result = spawnSync(command[0], command.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`${command.join(' ')} failed (${result.status}): ${result.stderr}`);
    return ms;
  };
  once();
  return Array.from({ length: runs }, once);
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
    text = '# Benchmark results\n\nEach section is written by `npm run bench` (or the command it shows); ratios compare tools measured in the same run on the same machine.\n';
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
