/**
 * `casi serve` (and `npm start`): reads the configuration from the environment, opens the database
 * (`CASI_DATABASE_URL`), starts the reference server, prints its address, database (and the development key) on
 * standard output, logs warnings and errors as JSON lines on
 * standard error, and runs until SIGINT or SIGTERM.
 */
import { createApp, type ServedSpec } from './app.js';
import { ConfigError, type LoadedConfig, loadConfig } from './config.js';
import { describeDatabase } from './database/open.js';
import { DatabaseOpenError, openState, type ServiceState } from './state.js';

/** Flags of `casi serve`; they override `PORT` and `HOST`. */
export interface ServeOptions {
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** Another version of this spec to serve (`casi serve --openapi F`); default: the generated routes. */
  readonly spec?: ServedSpec | undefined;
}

/** Longest wait for a clean shutdown before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Runs the server until SIGINT or SIGTERM, then closes it and resolves to the exit code: 0 after a clean shutdown,
 * 1 when the configuration is invalid or the address cannot be bound (with a message on standard error).
 */
export async function serve(options: ServeOptions = {}): Promise<number> {
  const loaded = configure(options);
  if (loaded === null) return 1;
  const state = await openStateOrFail(loaded);
  if (state === null) return 1;
  const { config, developmentKey, db } = state;
  const {
    app,
    service,
    close: closeApp,
  } = createApp({
    config,
    logger: { level: 'warn', stream: process.stderr },
    service: state.service,
    ...(options.spec === undefined ? {} : { spec: options.spec }),
  });
  const close = async () => {
    await closeApp();
    await state.close();
  };
  let address: string;
  try {
    await state.listen();
    await service.listen();
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await close();
    fail(`cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  process.stdout.write(`CASI reference server listening on ${address}\n`);
  process.stdout.write(`Database: ${describeDatabase(config.database)}\n`);
  if (developmentKey !== null) {
    process.stdout.write(`Development API key: ${developmentKey.key}\n`);
    process.stdout.write(
      db === null
        ? '(CASI_API_KEYS is unset: a new key is generated at every start.)\n'
        : '(CASI_API_KEYS is unset: the key is generated once and kept in the database.)\n',
    );
  }
  process.stdout.write(`Console: ${address}/console  Reference: ${address}/docs (after \`npm run docs\`)\n`);
  const signal = await shutdownSignal();
  process.stdout.write(`Received ${signal}; shutting down.\n`);
  const force = setTimeout(() => {
    fail(`shutdown took longer than ${SHUTDOWN_GRACE_MS} ms; exiting.`);
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  await close();
  clearTimeout(force);
  return 0;
}

/** The configuration from the environment and the flags, or null after printing what is wrong. */
function configure(options: ServeOptions): LoadedConfig | null {
  const { port } = options;
  if (port !== undefined && !(Number.isSafeInteger(port) && port >= 0 && port <= 65_535)) {
    fail('--port: must be an integer from 0 to 65535');
    return null;
  }
  const env = { ...process.env };
  if (port !== undefined) env.PORT = String(port);
  if (options.host !== undefined) env.HOST = options.host;
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(error.message);
    return null;
  }
}

/** The state of the configured database, or null after printing why it cannot be opened. */
async function openStateOrFail(loaded: LoadedConfig): Promise<ServiceState | null> {
  try {
    return await openState(loaded);
  } catch (error) {
    if (!(error instanceof DatabaseOpenError)) throw error;
    fail(error.message);
    return null;
  }
}

/** Resolves with the name of the first SIGINT or SIGTERM; a second one gets the default action. */
export function shutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    const onSignal = (signal: NodeJS.Signals) => {
      for (const name of signals) process.off(name, onSignal);
      resolve(signal);
    };
    for (const name of signals) process.on(name, onSignal);
  });
}

function fail(message: string): void {
  process.stderr.write(`casi serve: ${message}\n`);
}
