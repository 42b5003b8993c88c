/** A server for hand-written route tables (no credentials, no Service-Version) and raw HTTP requests to it. */
import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  type AnyHandler,
  type CasiRoutesOptions,
  casiRoutes,
  casiServerOptions,
  type RouteDefinition,
} from '../../templates/server/index.js';

/** The part of a route every test route shares: open, no version, JSON errors. */
export const open = {
  transport: 'http',
  security: [],
  serviceVersion: 'none',
  bodyRequired: false,
  queryCoercion: {},
} as const satisfies Partial<RouteDefinition>;

/** A listening server: its origin and `close`. */
export interface MediaServer {
  readonly app: FastifyInstance;
  readonly url: string;
  close(): Promise<void>;
}

/** Registers `routes` with `handlers` on a new Fastify instance listening on 127.0.0.1, port chosen by the OS. */
export async function serve(
  routes: readonly RouteDefinition[],
  handlers: Record<string, AnyHandler>,
  options: Partial<CasiRoutesOptions<Record<string, AnyHandler>, undefined>> = {},
): Promise<MediaServer> {
  const app = Fastify({ ...casiServerOptions() });
  casiRoutes(app, { ...options, routes, handlers });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, close: () => app.close() };
}

/** What a raw request got back. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  /** The body parsed as JSON. */
  json(): unknown;
}

/**
 * Sends a request with the target exactly as given (no URL normalisation, so `/p/.` and `;a=1` reach the server
 * as written) and reads the whole answer.
 */
export function send(
  base: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: init.method ?? 'GET', path: target, headers: init.headers });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(String(body)) });
      });
    });
    req.end(init.body);
  });
}
