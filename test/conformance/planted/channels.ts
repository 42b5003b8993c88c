/**
 * A server of `asyncapi.yaml` with planted faults: `ticks` (WebSocket) sends a tick whose `n` is text; `lossy` (SSE)
 * skips the event after the one a client resumes from. `feed` resumes right, and `ticks` takes the pings it is sent.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { WebSocketServer } from 'ws';

/** The events of both streams: ids 1 to 6, each `{ seq }`. */
const EVENTS = [1, 2, 3, 4, 5, 6];

/** Starts the server on 127.0.0.1 (an OS-chosen port); resolves to it and its base URL. */
export async function startPlantedChannels(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.get('/feed', async (request, reply) => stream(reply, request.headers['last-event-id'], false));
  app.get('/lossy', async (request, reply) => stream(reply, request.headers['last-event-id'], true));
  const sockets = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/ticks') return socket.destroy();
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'tick', n: 1 }));
      ws.send(JSON.stringify({ type: 'tick', n: 'two' }));
      ws.on('message', (data) => {
        const value = JSON.parse(data.toString()) as { type?: unknown };
        if (value.type !== 'ping') ws.close(1007, 'not a ping');
      });
    });
  });
  app.addHook('onClose', async () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** Writes the events after `lastEventId` (all without one), then ends; `lossy` skips the first of a resumed read. */
function stream(reply: FastifyReply, lastEventId: string | string[] | undefined, lossy: boolean): FastifyReply {
  const from = typeof lastEventId === 'string' ? EVENTS.indexOf(Number(lastEventId)) + 1 : 0;
  const start = lossy && from > 0 ? from + 1 : from;
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const seq of EVENTS.slice(start)) reply.raw.write(`id: ${seq}\ndata: ${JSON.stringify({ seq })}\n\n`);
  reply.raw.end();
  return reply;
}
