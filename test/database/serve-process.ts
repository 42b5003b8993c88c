/** `casi serve` as a child process on an OS-chosen loopback port, for tests that kill and restart it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '../../bin/casi.mjs');
/** Longest wait for the process to print its start lines or to exit (opening a database included). */
export const PROCESS_MS = 60_000;

const LISTENING = /CASI reference server listening on (http:\/\/127\.0\.0\.1:\d+)\n/;
const DATABASE = /Database: (.+)\n/;
const KEY = /Development API key: (casi_dev_\w+)\n/;
const CONSOLE = /Console: /;

/** A started server: its address, where it keeps its state, its development key. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly database: string;
  readonly apiKey: string;
  /** `kill -9`, resolved once the process is gone. */
  kill9(): Promise<void>;
}

/** Starts `casi serve --port 0` in `cwd` with `env` added to an environment without `CASI_*`, `PORT` or `HOST`. */
export function startServe(cwd: string, env: Record<string, string>): Promise<ServeProcess> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CASI_') && name !== 'PORT' && name !== 'HOST'),
  );
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    cwd,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`casi serve ${reason}; stdout: ${stdout} stderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`printed no start lines within ${PROCESS_MS} ms`), PROCESS_MS);
    const onExit = (code: number | null) => fail(`exited with ${code}`);
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!CONSOLE.test(stdout)) return;
      clearTimeout(timer);
      const match = (pattern: RegExp) => pattern.exec(stdout)?.[1] ?? '';
      resolve({
        child,
        baseUrl: match(LISTENING),
        database: match(DATABASE),
        apiKey: match(KEY),
        kill9: async () => {
          child.off('exit', onExit);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
