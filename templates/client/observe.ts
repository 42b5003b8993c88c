/**
 * The hooks a client calls around each attempt of a REST call (`onRequest`, `onResponse`) and its log lines
 * (`logLevel`, `logger`), with credential values left out of what they are shown.
 */

/** An attempt about to be sent: credential headers (and credential query members) read `[redacted]`. */
export interface RequestInfo {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** 1 for the first attempt, 2 for the first retry, … */
  readonly attempt: number;
}

/** An attempt that is over: its status (`undefined` when no answer came) and how long it took. */
export interface ResponseInfo extends RequestInfo {
  readonly status: number | undefined;
  readonly durationMs: number;
  /** Why no answer came (connection failure, timeout, abort). */
  readonly error?: unknown;
}

/**
 * How much the client logs: `warn` each failed attempt (error status or no answer), `info` each answer too, `debug`
 * each request (with its headers) too; `off` nothing (the default, or the `CASI_LOG` environment variable).
 */
export type LogLevel = 'off' | 'warn' | 'info' | 'debug';

/** Where log lines go (default `console`). */
export interface Logger {
  debug(message: string, ...data: unknown[]): void;
  info(message: string, ...data: unknown[]): void;
  warn(message: string, ...data: unknown[]): void;
}

/** The client options these hooks read. */
export interface HookOptions {
  /** Called before each attempt is sent. */
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /** Called when each attempt is over, with or without an answer. */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
}

/** Observes one attempt: called as it is sent, it returns the function to call when it is over. */
export type Observe = (sent: RequestInfo) => (status: number | undefined, error?: unknown) => void;

const LEVELS: Readonly<Record<LogLevel, number>> = { off: 0, warn: 1, info: 2, debug: 3 };
const REDACTED = '[redacted]';

/**
 * The observer of a client's attempts, or `undefined` when it has no hook and logs nothing (then nothing is spent).
 * `secretHeaders` (lower case) and `secretQuery` name where credentials travel. The client resolves `logLevel` (the
 * option, else the `CASI_LOG` environment variable) before it loads this module.
 */
export function observer(
  options: HookOptions,
  secretHeaders: readonly string[],
  secretQuery: readonly string[],
): Observe | undefined {
  const level = LEVELS[options.logLevel ?? 'off'] ?? 0;
  const { onRequest, onResponse } = options;
  if (onRequest === undefined && onResponse === undefined && level === 0) return undefined;
  const logger = options.logger ?? console;
  return (sent) => {
    const headers = { ...sent.headers };
    for (const header of secretHeaders) if (header in headers) headers[header] = REDACTED;
    const info: RequestInfo = { ...sent, url: redactQuery(sent.url, secretQuery), headers };
    onRequest?.(info);
    if (level >= LEVELS.debug) logger.debug(`casi: ${info.method} ${info.url} (attempt ${info.attempt})`, headers);
    const started = Date.now();
    return (status, error) => {
      const done: ResponseInfo = { ...info, status, durationMs: Date.now() - started, error };
      onResponse?.(done);
      const failed = status === undefined || status >= 400;
      if (level < (failed ? LEVELS.warn : LEVELS.info)) return;
      const line = `casi: ${info.method} ${info.url} -> ${status ?? 'no answer'} in ${done.durationMs} ms (attempt ${info.attempt})`;
      if (failed) logger.warn(line, ...(error === undefined ? [] : [error]));
      else logger.info(line);
    };
  };
}

/** `url` with the values of the `names` query members replaced by `[redacted]`. */
function redactQuery(url: string, names: readonly string[]): string {
  if (names.length === 0 || !url.includes('?')) return url;
  const parsed = new URL(url);
  for (const name of names) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, REDACTED);
  return parsed.href;
}
