/** How an error that ends a command is shown: lines for standard error and the exit code; a stack only on request. */
import { formatDiagnostic, InputError, UsageError } from './diagnostics.js';
import { OutputError } from './write.js';

/** What the CLI prints (without the `casi: ` prefix of the last line) and the exit code it ends with. */
export interface Failure {
  readonly lines: readonly string[];
  readonly exitCode: number;
}

/**
 * Usage errors exit 2; spec errors print their diagnostics; unreadable or unwritable files name the file; anything
 * else is an internal error shown as one line, with its stack only when `debug` is set (`--debug`, CASI_DEBUG=1).
 */
export function describeFailure(error: unknown, debug: boolean): Failure {
  if (error instanceof UsageError) return { lines: [`casi: ${error.message}`], exitCode: 2 };
  if (error instanceof InputError)
    return { lines: [...error.diagnostics.map((d) => formatDiagnostic(d)), `casi: ${error.message}`], exitCode: 1 };
  if (error instanceof OutputError || isSystemError(error)) return { lines: [`casi: ${error.message}`], exitCode: 1 };
  if (debug && error instanceof Error && error.stack) return { lines: [`casi: ${error.stack}`], exitCode: 1 };
  const message = (error instanceof Error ? error.message : String(error)).trim().split('\n')[0] ?? '';
  const shown = message.length > 300 ? `${message.slice(0, 300)}…` : message;
  return { lines: [`casi: ${shown} (an internal error; run again with --debug for its stack)`], exitCode: 1 };
}

/** An error of the file system or another system call (`EISDIR`, `EACCES`, …), which carries its code. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
