/**
 * gitter-streaming's generated `registerChannels` serves its one-way https channel as an HTTP stream route, and the
 * generated `streamRooms` reads it over loopback: JSON lines by default, Server-Sent Events when the document's
 * content type is `text/event-stream`; the bearer scheme's token goes in `Authorization`, refused with 401 without.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { corpusGenerator, importGenerated, loopbackApps } from './channel-helpers.js';

const generated = corpusGenerator();
// A reader that stops early leaves fetch's pool a spare connection with no request, which only a forced close ends.
const listen = loopbackApps({ forceCloseConnections: true });

type StreamRooms = (options: object) => AsyncGenerator<Record<string, unknown>>;
type Stream = { send(message: unknown): Promise<boolean>; signal: AbortSignal };

/** gitter-streaming with its messages declared as Server-Sent Events. */
const gitterSse = {
  from: 'gitter-streaming',
  change: (text: string) => text.replace(/^(asyncapi: .*)$/m, '$1\ndefaultContentType: text/event-stream'),
};

const first = { id: 'm1', text: 'hello' };
const second = { id: 'm2', text: 'again', unread: true };

/** Serves `name`'s rooms channel with `handler`, refusing a request without `Bearer T-3`; the reader and its base. */
async function setUp(name: string, handler: (request: never, stream: Stream) => unknown, options: object = {}) {
  const edit = name === 'gitter-sse' ? gitterSse : undefined;
  const { out } = await generated(name, edit);
  const client = await importGenerated(out, 'channels.gen.ts');
  const server = await importGenerated(out, 'channel-routes.gen.ts');
  const { HttpError } = (await importGenerated(out, 'runtime/server/errors.ts')) as {
    HttpError: new (status: number, code: string, message: string) => Error;
  };
  const register = server.registerChannels as (app: FastifyInstance, handlers: object, options: object) => void;
  const authenticate = (request: { headers: Record<string, unknown> }) => {
    if (request.headers.authorization !== 'Bearer T-3') throw new HttpError(401, 'unauthorized', 'a token is needed');
    return { user: 'U3' };
  };
  const port = await listen((app) => register(app, { rooms: handler }, { authenticate, ...options }));
  return { streamRooms: client.streamRooms as StreamRooms, baseUrl: `http://127.0.0.1:${port}` };
}

/** Every message `streamRooms` yields, and the data of each invalid one. */
async function readAll(streamRooms: StreamRooms, options: object) {
  const messages: unknown[] = [];
  const invalid: unknown[] = [];
  const params = { roomId: 'r 1', resource: 'chatMessages' };
  for await (const message of streamRooms({
    params,
    onInvalid: (_e: Error, data: unknown) => invalid.push(data),
    ...options,
  }))
    messages.push(message);
  return { messages, invalid };
}

describe('gitter-streaming served by registerChannels', () => {
  it('writes JSON lines the generated reader reads, with the request authenticated and its parameters', async () => {
    const seen: unknown[] = [];
    const { streamRooms, baseUrl } = await setUp('gitter-streaming', async (request: never, stream) => {
      const { params, auth } = request as { params: unknown; auth: unknown };
      seen.push(params, auth);
      expect(await stream.send(first)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await stream.send({ id: 5 });
      await stream.send(second);
    });
    expect(await readAll(streamRooms, { baseUrl, apiKey: 'T-3' })).toEqual({
      messages: [first, second],
      invalid: [{ id: 5 }],
    });
    expect(seen).toEqual([{ roomId: 'r 1', resource: 'chatMessages' }, { user: 'U3' }]);
  }, 60_000);

  it('answers 401 before any message without the bearer token', async () => {
    let called = false;
    const { streamRooms, baseUrl } = await setUp('gitter-streaming', () => {
      called = true;
    });
    await expect(readAll(streamRooms, { baseUrl })).rejects.toMatchObject({ status: 401 });
    await expect(readAll(streamRooms, { baseUrl, apiKey: 'wrong' })).rejects.toMatchObject({ status: 401 });
    expect(called).toBe(false);
  }, 60_000);

  it('refuses to write a message the channel does not carry when responses are validated', async () => {
    const refusals: unknown[] = [];
    const { streamRooms, baseUrl } = await setUp(
      'gitter-streaming',
      async (_request: never, stream) => {
        await stream.send({ id: 5 }).catch((error: Error) => refusals.push(error.name));
        await stream.send(first);
      },
      { validateResponses: true },
    );
    expect(await readAll(streamRooms, { baseUrl, apiKey: 'T-3' })).toEqual({ messages: [first], invalid: [] });
    expect(refusals).toEqual(['ValidationError']);
  }, 60_000);

  it('writes Server-Sent Events when the document says text/event-stream', async () => {
    const { streamRooms, baseUrl } = await setUp('gitter-sse', async (_request: never, stream) => {
      await stream.send(first);
      await stream.send(second);
    });
    const response = await fetch(`${baseUrl}/rooms/r1/chatMessages`, {
      method: 'POST',
      headers: { authorization: 'Bearer T-3' },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(`data: ${JSON.stringify(first)}\n\ndata: ${JSON.stringify(second)}\n\n`);
    expect(await readAll(streamRooms, { baseUrl, apiKey: 'T-3' })).toEqual({ messages: [first, second], invalid: [] });
  }, 60_000);

  it('aborts the stream signal when the reader stops', async () => {
    let aborted: Promise<boolean> | undefined;
    const { streamRooms, baseUrl } = await setUp('gitter-streaming', async (_request: never, stream) => {
      aborted = new Promise((resolve) => stream.signal.addEventListener('abort', () => resolve(true)));
      for (let i = 0; i < 1000 && !stream.signal.aborted; i++) {
        await stream.send({ id: `m${i}`, text: 'tick' });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    });
    for await (const message of streamRooms({ baseUrl, apiKey: 'T-3', params: { roomId: 'r', resource: 'events' } })) {
      expect(message).toEqual({ id: 'm0', text: 'tick' });
      break;
    }
    expect(await aborted).toBe(true);
  }, 60_000);
});
