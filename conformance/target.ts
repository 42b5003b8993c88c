/** The server under test: an in-process reference server on 127.0.0.1 (port chosen by the OS), or any base URL. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type AppOptions, createApp } from '../reference/app.js';
import type { FakeClock } from '../reference/clock.js';
import { loadConfig } from '../reference/config.js';
import { openState } from '../reference/state.js';

/** API keys the suite may use; only `write` is needed, the others enable more of the auth checks. */
export interface TargetKeys {
  /** A key that may write (organisation A). */
  readonly write: string;
  /** A read-only key of organisation A. */
  readonly read?: string;
  /** A key of another organisation (B). */
  readonly otherOrg?: string;
}

/** A running server the checks talk to. */
export interface Target {
  readonly baseUrl: string;
  readonly keys: TargetKeys;
  /** The reference server's fake clock, when it runs in process on one (token expiry checks need it). */
  readonly clock?: FakeClock;
  /** The in-process server's HTTP server (to watch its sockets); absent for a remote one. */
  readonly httpServer?: Server;
  /** Background errors the in-process server reported (none is expected). */
  readonly backgroundErrors: unknown[];
  /** Stops an in-process server; does nothing for a remote one. */
  close(): Promise<void>;
}

/** The keys the in-process reference server is configured with. */
export const REFERENCE_KEYS = {
  write: 'conformance_write',
  read: 'conformance_read',
  otherOrg: 'conformance_other',
} as const satisfies Required<TargetKeys>;

/** What `startReference` takes. */
export interface ReferenceTargetOptions {
  /** Run the service on this clock (default: the wall clock). */
  readonly clock?: FakeClock;
  /** Extra environment (`CASI_…`) for `loadConfig`; `CASI_DATABASE_URL` puts the state in that database. */
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds of silence before an SSE heartbeat (default the server's). */
  readonly sseHeartbeatMs?: number;
  /** Other `createApp` options (body deadlines, logger). */
  readonly app?: Pick<AppOptions, 'bodyLimits' | 'logger'>;
}

/** Starts the reference server with three keys (write and read of org A, write of org B), validating its answers. */
export async function startReference(options: ReferenceTargetOptions = {}): Promise<Target> {
  // In memory unless the environment names a database, opened as `casi serve` opens it.
  const state = await openState(
    loadConfig({
      CASI_DATABASE_URL: 'memory:',
      CASI_API_KEYS: `${REFERENCE_KEYS.write}:org_a:write,${REFERENCE_KEYS.read}:org_a:read,${REFERENCE_KEYS.otherOrg}:org_b:write`,
      ...options.env,
    }),
  );
  const backgroundErrors: unknown[] = [];
  const reference: App = createApp({
    ...options.app,
    config: state.config,
    validateResponses: true,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.sseHeartbeatMs === undefined ? {} : { sseHeartbeatMs: options.sseHeartbeatMs }),
    service: { onError: (error) => backgroundErrors.push(error), ...state.service },
  });
  await state.listen();
  await reference.service.listen();
  await reference.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = reference.app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keys: REFERENCE_KEYS,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    httpServer: reference.app.server,
    backgroundErrors,
    close: async () => {
      await reference.close();
      await state.close();
    },
  };
}

/** Another server implementing the API, reached at `baseUrl` with `keys`. */
export function remoteTarget(baseUrl: string, keys: TargetKeys): Target {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), keys, backgroundErrors: [], close: async () => undefined };
}
