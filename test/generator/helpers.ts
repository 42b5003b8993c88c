/** Shared paths and a runner for the `casi` command in generator tests. */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

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

/**
 * Type-checks the files `include` matches under `dir` with `tsc --strict` (a tsconfig written there), resolving to
 * `compiled`, or to tsc's report.
 */
export async function compileStrict(dir: string, include: readonly string[]): Promise<string> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include,
    }),
  );
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  return promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { maxBuffer: 1 << 24 }).then(
    () => 'compiled',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}
