/**
 * A Fastify server of `openapi.yaml` with planted faults: `getItem` answers 500 (404 for the item `createItem`
 * says it made, which its link reads), `listItems` answers items its schema refuses, `createItem` accepts any body
 * with 200. `health` (with `PLANTED_TOKEN` only) and the refusal of a
 * bad `limit` are right.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';

/** The bearer token `health` takes. */
export const PLANTED_TOKEN = 'planted-token';

/** Starts the server on 127.0.0.1 (an OS-chosen port); resolves to it and its base URL. */
export async function startPlantedServer(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.get('/health', async (request, reply) =>
    request.headers.authorization === `Bearer ${PLANTED_TOKEN}`
      ? { status: 'ok' }
      : reply.code(401).send({ message: 'a bearer token is needed' }),
  );
  app.get('/items', async (request, reply) => {
    const { limit } = request.query as { limit?: string };
    if (limit !== undefined && !/^\d+$/.test(limit)) return reply.code(400).send({ message: 'limit: an integer' });
    return [{ id: 'one', name: 1 }];
  });
  app.post('/items', async () => ({ id: 1, name: 'anything' }));
  app.get('/items/:id', async (request, reply) =>
    (request.params as { id: string }).id === '1'
      ? reply.code(404).send({ message: 'no such item' })
      : reply.code(500).send({ message: 'planted failure' }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
