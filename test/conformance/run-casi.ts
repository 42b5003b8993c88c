/** Runs the `casi` command (from dist/, as users do) in a child process, for the tests of `casi conformance`. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './lint.js';

const CASI = join(ROOT, 'bin', 'casi.mjs');

/** Runs `casi ...args` to its end; its exit code and both outputs. */
export function runCasi(
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CASI, ...args], { cwd: ROOT, timeout: timeoutMs }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout, stderr }),
    );
  });
}

/** `casi serve --openapi file --port 0`, resolved once it listens: its base URL and how to stop it. */
export function startCasiServe(file: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [CASI, 'serve', '--openapi', file, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`casi serve did not start in time: ${out}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ url, stop });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`casi serve ended (${code}): ${out}`));
    });
  });
}
