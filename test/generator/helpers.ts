/** Shared paths and a runner for the `casi` command in generator tests. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SPEC = { openapi: resolve(ROOT, 'spec/openapi.yaml'), asyncapi: resolve(ROOT, 'spec/asyncapi.yaml') };
export const FIXTURES = ['widgets', 'streams'] as const;

/** The spec pair of a fixture in test/fixtures/<name>/. */
export function fixture(name: string): { openapi: string; asyncapi: string } {
  return {
    openapi: resolve(ROOT, `test/fixtures/${name}/openapi.yaml`),
    asyncapi: resolve(ROOT, `test/fixtures/${name}/asyncapi.yaml`),
  };
}

/**
 * Runs `casi …args` as a child process (standard input `input`, working directory `cwd`) and resolves with its exit
 * code and output.
 */
export function casi(
  args: string[],
  input = '',
  cwd = ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/casi.mjs'), ...args], { cwd, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}
