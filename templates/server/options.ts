/** Options of `casiRoutes`, and their resolution into one fully defaulted object passed down to every part. */
import type { BodyLimits } from './body-guard.js';
import type { Authenticate, HandlerMap } from './handlers.js';
import { type OnResponseInvalid, throwResponseProblem } from './response.js';
import type { RouteDefinition } from './route.js';

/** The only `Service-Version` this runtime accepts unless told otherwise. */
export const DEFAULT_SERVICE_VERSION = '2025-06-19';

/** What `casiRoutes` takes; every field but `routes` and `handlers` is optional. */
export interface CasiRoutesOptions<H, Auth = undefined> {
  readonly routes: readonly RouteDefinition[];
  /** One handler per `operationId` of `routes`, of the kind its transport needs. */
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
}

const MEBIBYTE = 1024 * 1024;

/** Applies the defaults, and throws when a route has no handler or a handler has no route. */
export function resolveOptions<H, Auth>(options: CasiRoutesOptions<H, Auth>): ResolvedOptions {
  const handlers = options.handlers as Readonly<Record<string, unknown>>;
  const ids = new Set(options.routes.map((route) => route.operationId));
  const missing = [...ids].filter((id) => typeof handlers[id] !== 'function');
  const unknown = Object.keys(handlers).filter((id) => !ids.has(id));
  if (missing.length > 0 || unknown.length > 0) {
    const parts = [
      missing.length > 0 ? `no handler for ${missing.join(', ')}` : '',
      unknown.length > 0 ? `no route for handler ${unknown.join(', ')}` : '',
    ];
    throw new TypeError(`casiRoutes: ${parts.filter(Boolean).join('; ')}`);
  }
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
  };
}
