/**
 * Runs `casi conformance` for its tests: from dist/ in a child process, as users do, or in this process where the
 * process is not the subject; and `casi serve`'s mock, in either.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runConformance } from '../../conformance/command.js';
import { describeFailure } from '../../generator/failure.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { mockApp } from '../../reference/any-spec/serve.js';
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

/**
 * `casi conformance ...args` in this process (for tests whose subject is not the process): the same exit code and
 * outputs as `runCasi`, failures mapped as the CLI maps them. Every option takes a value.
 */
export async function conformanceInProcess(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i] ?? '';
    const value = args[i + 1];
    if (!name.startsWith('--') || value === undefined) throw new Error(`not an option with its value: ${name}`);
    options[name.slice(2)] = value;
  }
  let stdout = '';
  let stderr = '';
  const output = {
    out: (text: string) => {
      stdout += text;
    },
    err: (line: string) => {
      stderr += `${line}\n`;
    },
  };
  try {
    return { code: await runConformance(options, output), stdout, stderr };
  } catch (error) {
    const failure = describeFailure(error, false);
    return { code: failure.exitCode, stdout, stderr: stderr + failure.lines.map((line) => `${line}\n`).join('') };
  }
}

/** The `casi serve --openapi/--asyncapi` mock of corpus documents in this process, listening on a free port. */
export async function startMock(files: {
  openapi?: string;
  asyncapi?: string;
}): Promise<{ url: string; app: FastifyInstance }> {
  const { app } = mockApp(buildIr(await loadSpecs(files.openapi, files.asyncapi)));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, app };
}
