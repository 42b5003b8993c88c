/**
 * Several `upgrade` listeners on one HTTP server (this service's WebSocket routes and the AsyncAPI channel routes):
 * each claims its paths here, passes over a path another one claims, and the first registered answers 404 for a path
 * nobody claims, so that exactly one listener answers each upgrade.
 */
import type { Server } from 'node:http';

const claims = new WeakMap<Server, ((path: string) => boolean)[]>();

/** Registers `owns`; the result says what to do with a path `owns` does not match: `answer` 404, or `leave` it. */
export function claimUpgrades(server: Server, owns: (path: string) => boolean): (path: string) => 'answer' | 'leave' {
  const all = claims.get(server) ?? [];
  claims.set(server, all);
  all.push(owns);
  return (path) => (all[0] === owns && !all.some((other) => other(path)) ? 'answer' : 'leave');
}
