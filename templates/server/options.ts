/** Options of `casiRoutes`, and their resolution into one fully defaulted object passed down to every part. */
import type { BodyLimits } from './body-guard.js';
import type { Authenticate, HandlerMap } from './handlers.js';
import { type OnResponseInvalid, throwResponseProblem } from './response.js';
import type { RouteDefinition } from './route.js';
import { sampleHandler } from './sample-handler.js';

/** The only `Service-Version` this runtime accepts unless told otherwise. */
export const DEFAULT_SERVICE_VERSION = '2025-06-19';

/** What `casiRoutes` takes; every field but `routes` and `handlers` is optional. */
export interface CasiRoutesOptions<H, Auth = undefined> {
  readonly routes: readonly RouteDefinition[];
  /** Handlers by `operationId` of `routes`, of the kind its transport needs; a route without one answers its sample. */
  readonly handlers: H & HandlerMap<H>;
  /** Default: every request passes with `auth` undefined. */
  readonly authenticate?: Authenticate<Auth>;
  /** Check each answer's status and body against the route's responses (tests). Default false. */
  readonly validateResponses?: boolean;
  /** Default: throw, so the client gets 500 and the log the problem. */
  readonly onResponseInvalid?: OnResponseInvalid;
  /** Largest accepted request body in bytes. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** The accepted `Service-Version`. Default `2025-06-19`. */
  readonly serviceVersion?: string;
  /** Milliseconds of silence after which an SSE stream sends a `: heartbeat` comment. Default 15 000. */
  readonly sseHeartbeatMs?: number;
  /** Largest accepted WebSocket message in bytes. Default 1 MiB. */
  readonly maxPayload?: number;
  /** Milliseconds between WebSocket pings; a socket that did not answer the last ping is terminated. Default 30 000. */
  readonly pingIntervalMs?: number;
  /** Answer browsers of this origin (`'*'`: any) with CORS headers and preflight answers. Default: no CORS. */
  readonly corsOrigin?: string;
  /**
   * Limits on request bodies while they arrive (408 past a deadline or an idle gap, 503 over the bytes all
   * unfinished bodies may hold). Default: 30 s in all, 10 s idle, 64 MiB.
   */
  readonly bodyLimits?: Partial<BodyLimits>;
  /**
   * The shape of error answers: `casi`, the `Error` body; `declared`, the operation's declared response closest to
   * the failure (its sample where its schema refuses the `Error` body), a problem JSON where none is declared.
   * Default `casi`.
   */
  readonly errorShape?: 'casi' | 'declared';
}

/** `CasiRoutesOptions` with every default applied (handlers erased). */
export interface ResolvedOptions {
  readonly routes: readonly RouteDefinition[];
  readonly handlers: Readonly<Record<string, unknown>>;
  readonly authenticate: Authenticate<unknown>;
  readonly validateResponses: boolean;
  readonly onResponseInvalid: OnResponseInvalid;
  readonly bodyLimit: number;
  readonly serviceVersion: string;
  readonly sseHeartbeatMs: number;
  readonly maxPayload: number;
  readonly pingIntervalMs: number;
  readonly corsOrigin: string | undefined;
  readonly bodyLimits: BodyLimits;
  readonly errorShape: 'casi' | 'declared';
}

const MEBIBYTE = 1024 * 1024;

/**
 * Applies the defaults; a route without a handler answers its sample (`sampleHandler`), and a handler without a
 * route is refused (a misspelt operationId).
 */
export function resolveOptions<H, Auth>(options: CasiRoutesOptions<H, Auth>): ResolvedOptions {
  const given = options.handlers as Readonly<Record<string, unknown>>;
  const ids = new Set(options.routes.map((route) => route.operationId));
  const present = Object.keys(given).filter((id) => given[id] !== undefined);
  const unknown = present.filter((id) => !ids.has(id));
  const notFunctions = present.filter((id) => ids.has(id) && typeof given[id] !== 'function');
  if (unknown.length > 0 || notFunctions.length > 0) {
    const parts = [
      unknown.length > 0 ? `no route for handler ${unknown.join(', ')}` : '',
      notFunctions.length > 0 ? `the handler for ${notFunctions.join(', ')} is not a function` : '',
    ];
    throw new TypeError(`casiRoutes: ${parts.filter(Boolean).join('; ')}`);
  }
  const handlers = Object.fromEntries(
    options.routes.map((route) => {
      const handler = given[route.operationId];
      return [route.operationId, handler ?? sampleHandler(route)];
    }),
  );
  return {
    routes: options.routes,
    handlers,
    authenticate: options.authenticate ?? (() => undefined),
    validateResponses: options.validateResponses ?? false,
    onResponseInvalid: options.onResponseInvalid ?? throwResponseProblem,
    bodyLimit: options.bodyLimit ?? MEBIBYTE,
    serviceVersion: options.serviceVersion ?? DEFAULT_SERVICE_VERSION,
    sseHeartbeatMs: options.sseHeartbeatMs ?? 15_000,
    maxPayload: options.maxPayload ?? MEBIBYTE,
    pingIntervalMs: options.pingIntervalMs ?? 30_000,
    corsOrigin: options.corsOrigin,
    bodyLimits: { totalMs: 30_000, idleMs: 10_000, maxPendingBytes: 64 * MEBIBYTE, ...options.bodyLimits },
    errorShape: options.errorShape ?? 'casi',
  };
}
