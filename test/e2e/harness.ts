/**
 * The end-to-end harness: a real reference server (`createApp`, responses validated) on 127.0.0.1 port 0 with a
 * fake clock, and clients of the generated package for each test key. Its state is in memory, or on a fresh database
 * of the kind `CASI_TEST_DATABASE` names, opened as `casi serve` opens it. Background errors and error logs are kept
 * so that every suite can assert none happened.
 */

import { type Client, type ClientOptions, createClient } from '../../generated/src/client.gen.js';
import { type App, type AppOptions, createApp } from '../../reference/app.js';
import { FakeClock } from '../../reference/clock.js';
import { loadConfig } from '../../reference/config.js';
import { openState } from '../../reference/state.js';
import { testDatabase } from '../reference/helpers/state.js';

/** The test keys: `write` and `read` of org_a, and a `write` key of org_b. */
export const KEYS = { writer: 'key_write', reader: 'key_read', stranger: 'key_other' } as const;

const API_KEYS = `${KEYS.writer}:org_a:write,${KEYS.reader}:org_a:read,${KEYS.stranger}:org_b:write`;

/** A running server and what tests need around it. */
export interface Harness {
  readonly baseUrl: string;
  readonly clock: FakeClock;
  readonly server: App;
  /** Clients of org_a (write and read keys) and org_b. */
  readonly writer: Client;
  readonly reader: Client;
  readonly stranger: Client;
  /** Errors of the service's background work (timers). */
  readonly backgroundErrors: unknown[];
  /** Fastify log lines at level error (a 500, a response that broke the spec, a failed stream or session). */
  readonly errorLogs: string[];
  /** A client with another key, or none; no retries unless `options` says so. */
  client(apiKey?: string, options?: Partial<ClientOptions>): Client;
  /** Moves the service's clock forward, running what falls due. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** What `startServer` takes: extra environment (`CASI_*`) and `createApp` options. */
export interface ServerSetup {
  readonly env?: Readonly<Record<string, string>>;
  readonly app?: Omit<AppOptions, 'config' | 'clock' | 'validateResponses' | 'logger'>;
}

/** Starts a server with the test keys on a fake clock; close it in `afterAll`. */
export async function startServer(setup: ServerSetup = {}): Promise<Harness> {
  const clock = new FakeClock();
  const backgroundErrors: unknown[] = [];
  const errorLogs: string[] = [];
  const database = await testDatabase();
  const state = await openState(loadConfig({ CASI_API_KEYS: API_KEYS, CASI_DATABASE_URL: database.url, ...setup.env }));
  const server = createApp({
    ...setup.app,
    config: state.config,
    clock,
    validateResponses: true,
    logger: { level: 'error', stream: { write: (line: string) => void errorLogs.push(line) } },
    service: { onError: (error) => void backgroundErrors.push(error), ...state.service, ...setup.app?.service },
  });
  await state.listen();
  await server.service.listen();
  const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const client = (apiKey?: string, options: Partial<ClientOptions> = {}) =>
    createClient({
      baseUrl,
      maxRetries: 0,
      timeoutMs: 10_000,
      // The reference server must send exactly what the spec says: every event is checked strictly.
      strict: true,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...options,
    });
  return {
    baseUrl,
    clock,
    server,
    writer: client(KEYS.writer),
    reader: client(KEYS.reader),
    stranger: client(KEYS.stranger),
    backgroundErrors,
    errorLogs,
    client,
    advance: (ms) => clock.advance(ms),
    close: async () => {
      await server.close();
      await state.close();
      await database.remove();
    },
  };
}

/** An answer of `untyped(client).request`: openapi-fetch's `{ data, error, response }`. */
export interface RawAnswer {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}

/**
 * The client's openapi-fetch instance without the spec's types (auth and version headers still added), for the
 * requests the typed methods cannot make: unknown paths, wrong methods, bad headers and bodies.
 */
export function untyped(client: Client): {
  request(method: string, path: string, init?: Record<string, unknown>): Promise<RawAnswer>;
} {
  return client.raw as never;
}
