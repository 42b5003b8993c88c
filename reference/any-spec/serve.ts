/**
 * `casi serve --openapi F [--asyncapi F]`: serves any spec the generator accepts. A version of this service's own
 * spec runs the reference server, whose hand-written handlers keep their operations; every other operation (and any
 * other spec's) validates its request (parameters in their styles, bodies of their media types) and answers its first
 * success response with the spec's example or a value built from the schema; 501 `not_implemented` where the spec
 * declares no response. Refused requests are answered in the shape the spec declares for the operation (a problem
 * JSON where it declares none). Runs until SIGINT or SIGTERM.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { routes as referenceRoutes, SERVICE_VERSION } from '../../generated/src/server.gen.js';
import type { Ir } from '../../generator/ir/model.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel } from '../../generator/pipeline.js';
import { createAjv } from '../../generator/schema/ajv.js';
import { casiRoutes } from '../../templates/server/plugin.js';
import { SHUTDOWN_GRACE_MS, serve, shutdownSignal } from '../main.js';
import { registerSpecChannels } from './channels.js';
import { specRoutes } from './routes.js';

/** The operations the reference server has hand-written handlers for. */
const REFERENCE_OPERATIONS = new Set(referenceRoutes.map((route) => route.operationId));

/** The documents to serve and where to listen (flags over `PORT` and `HOST`, defaults 4010 and 127.0.0.1). */
export interface SpecServeOptions {
  readonly openapi?: string | undefined;
  readonly asyncapi?: string | undefined;
  readonly port?: number | undefined;
  readonly host?: string | undefined;
}

/**
 * The mock of a spec other than this service's, not yet listening: its routes answer samples (refusals in the
 * declared error shape), its channels send samples. `channels` counts them.
 */
export function mockApp(
  ir: Ir,
  ajv = createAjv(ir, { standalone: false }),
  routes = specRoutes(ir, ajv),
): { app: FastifyInstance; channels: number } {
  const app = Fastify({ logger: { level: 'warn', stream: process.stderr } });
  casiRoutes(app, {
    routes,
    handlers: {},
    errorShape: 'declared',
    ...(ir.serviceVersion === undefined ? {} : { serviceVersion: ir.serviceVersion }),
  });
  return { app, channels: registerSpecChannels(app, ir, ajv) };
}

/** Starts the server of the documents; resolves to the exit code once it has shut down. */
export async function serveSpec(options: SpecServeOptions): Promise<number> {
  const { ir, diagnostics } = await buildModel(
    resolveOptions({ openapi: options.openapi, asyncapi: options.asyncapi }),
  );
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const ajv = createAjv(ir, { standalone: false });
  const routes = specRoutes(ir, ajv);
  if (routes.some((route) => REFERENCE_OPERATIONS.has(route.operationId))) {
    // A version of this service's own spec: the reference server, its handlers where they exist.
    return serve({
      port: options.port,
      host: options.host,
      spec: { routes, serviceVersion: ir.serviceVersion ?? SERVICE_VERSION },
    });
  }
  const { app, channels } = mockApp(ir, ajv, routes);
  const port = options.port ?? Number(process.env.PORT ?? 4010);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  let address: string;
  try {
    address = await app.listen({ port, host });
  } catch (error) {
    await app.close();
    process.stderr.write(`casi serve: cannot listen on ${host}:${port}: ${(error as Error).message}\n`);
    return 1;
  }
  process.stdout.write(
    `CASI serving ${ir.title} on ${address}: ${routes.length} operation(s)` +
      `${channels > 0 ? ` and ${channels} channel(s)` : ''} answer from examples and schemas` +
      `${warnings > 0 ? ` (${warnings} warning(s): run casi check)` : ''}\n`,
  );
  const signal = await shutdownSignal();
  process.stdout.write(`Received ${signal}; shutting down.\n`);
  const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
  force.unref();
  await app.close();
  clearTimeout(force);
  return 0;
}
