/**
 * gitter-streaming (AsyncAPI 3.1, HTTP streaming over https): the generated stream reader reads the messages a real
 * Fastify route writes in chunks, as JSON lines or as Server-Sent Events, validating each.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { corpusGenerator, importGenerated, loopbackApps } from './channel-helpers.js';

const generated = corpusGenerator();
const listen = loopbackApps();

type StreamRooms = (options: {
  baseUrl: string;
  params: { roomId: string; resource: string };
  onInvalid?: (error: Error, data: unknown) => void;
}) => AsyncGenerator<Record<string, unknown>>;

/** The generated `streamRooms`, and the base URL of a loopback app whose stream route writes `chunks`. */
async function setUp(contentType: string, chunks: readonly string[], seen: unknown[] = []) {
  const { out } = await generated('gitter-streaming');
  const streamRooms = (await importGenerated(out, 'channels.gen.ts')).streamRooms as StreamRooms;
  const port = await listen((app: FastifyInstance) => {
    app.route({
      method: ['GET', 'POST'],
      url: '/rooms/:roomId/:resource',
      handler: async (request, reply) => {
        seen.push(request.method, request.params);
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': contentType });
        for (const chunk of chunks) {
          reply.raw.write(chunk);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        reply.raw.end();
      },
    });
    app.post('/refused/rooms/:roomId/:resource', async (_request, reply) =>
      reply.code(401).send({ code: 'unauthorized', message: 'no token' }),
    );
  });
  return { streamRooms, baseUrl: `http://127.0.0.1:${port}` };
}

/** Every message of the stream, and the data of each invalid one. */
async function readAll(streamRooms: StreamRooms, baseUrl: string) {
  const messages: unknown[] = [];
  const invalid: unknown[] = [];
  const params = { roomId: 'r 1', resource: 'chatMessages' };
  for await (const message of streamRooms({ baseUrl, params, onInvalid: (_e, data) => invalid.push(data) }))
    messages.push(message);
  return { messages, invalid };
}

const first = { id: 'm1', text: 'hello', unread: false };
const second = { id: 'm2', text: 'again', readBy: 2 };

describe('gitter-streaming (3.1, chunked HTTP)', () => {
  it('reads JSON lines split across chunks, skips blank keep-alive lines and keeps invalid messages out', async () => {
    const line = JSON.stringify(second);
    const chunks = [`${JSON.stringify(first)}\n \r\n`, line.slice(0, 7), `${line.slice(7)}\n{"id":5}\n`];
    const seen: unknown[] = [];
    const { streamRooms, baseUrl } = await setUp('application/json', chunks, seen);
    expect(await readAll(streamRooms, baseUrl)).toEqual({ messages: [first, second], invalid: [{ id: 5 }] });
    // The method of the operation's http binding, and the address parameters (encoded, decoded by the server).
    expect(seen).toEqual(['POST', { roomId: 'r 1', resource: 'chatMessages' }]);
  }, 60_000);

  it('reads Server-Sent Events when the answer is an event stream', async () => {
    const chunks = [`data: ${JSON.stringify(first)}\n\n: keep-alive\n\n`, `data: ${JSON.stringify(second)}\n\n`];
    const { streamRooms, baseUrl } = await setUp('text/event-stream', chunks);
    expect(await readAll(streamRooms, baseUrl)).toEqual({ messages: [first, second], invalid: [] });
  }, 60_000);

  it('throws the ApiError of a refused request', async () => {
    const { streamRooms, baseUrl } = await setUp('application/json', []);
    await expect(readAll(streamRooms, `${baseUrl}/refused`)).rejects.toMatchObject({ status: 401 });
  }, 60_000);
});
