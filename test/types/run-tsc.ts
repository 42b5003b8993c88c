/** Runs the TypeScript compiler of the repository in a child process. */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Runs `tsc …args` from the repository root (at most 2 minutes); resolves with its exit code and output. */
export function tsc(args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const options = { cwd: ROOT, timeout: 120_000, maxBuffer: 16 << 20 };
    execFile(process.execPath, [TSC, ...args], options, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}
