/**
 * The stream channel reader over real HTTP: SSE and JSON lines, invalid messages set aside, refusals as `ApiError`,
 * and an SSE stream resumed after its connection drops, with `Last-Event-ID`, losing and repeating nothing.
 */
import type { ServerResponse } from 'node:http';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { readChannel } from '../../templates/client/channel-stream.js';
import { ApiConnectionError, ApiError } from '../../templates/client/errors.js';
import type { ChannelDescriptor } from '../../templates/shared/channel.js';
import type { ValidationError } from '../../templates/shared/errors.js';
import { type CompiledValidate, fromCompiled } from '../../templates/shared/validation.js';
import { startHttpServer, type TestServer } from './helpers/http-server.js';

const ajv = new Ajv({ allErrors: true });
const tick = fromCompiled(
  ajv.compile({
    type: 'object',
    required: ['n'],
    properties: { n: { type: 'integer' } },
  }) as CompiledValidate,
  'tick',
);
const channel: ChannelDescriptor = {
  name: 'ticks',
  address: '/ticks/{room}',
  receive: { validators: { tick }, keys: { tick: ['tick'] } },
  send: { validators: {}, keys: {} },
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every message of the stream, in order. */
async function all(options: Parameters<typeof readChannel>[1]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const message of readChannel(channel, options)) out.push(message);
  return out;
}

/** Writes SSE events `from`..`to` (ids `e<n>`) to `res`. */
function writeEvents(res: ServerResponse, from: number, to: number): void {
  for (let n = from; n <= to; n++) res.write(`id: e${n}\ndata: {"n":${n}}\n\n`);
}

describe('readChannel', () => {
  it('reads JSON lines and SSE events, with the address filled in, and ends with the stream', async () => {
    const paths: string[] = [];
    server = await startHttpServer((req, res) => {
      paths.push(req.url ?? '');
      if (req.url?.startsWith('/ticks/a%20b')) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.end('{"n":1}\n\n{"n":2}\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeEvents(res, 1, 3);
      res.end();
    });
    expect(await all({ baseUrl: server.url, params: { room: 'a b' } })).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await all({ baseUrl: server.url, params: { room: 'c' } })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(paths).toEqual(['/ticks/a%20b', '/ticks/c']);
  });

  it('sets an invalid message aside for onInvalid and goes on', async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end('{"n":1}\n{"n":"two"}\n{"n":3}\n');
    });
    const invalid: [string, unknown][] = [];
    const onInvalid = (error: ValidationError, data: unknown) => invalid.push([error.message, data]);
    expect(await all({ baseUrl: server.url, params: { room: 'r' }, onInvalid })).toEqual([{ n: 1 }, { n: 3 }]);
    expect(invalid).toEqual([[expect.stringMatching(/\/n: must be integer/), { n: 'two' }]]);
  });

  it('throws the refusal as ApiError with its status and body, without retrying it', async () => {
    let requests = 0;
    server = await startHttpServer((_req, res) => {
      requests++;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"no such room"}');
    });
    const error = await all({ baseUrl: server.url, params: { room: 'r' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, data: { message: 'no such room' } });
    expect(requests).toBe(1);
  });

  it('resumes a dropped SSE connection after the last id it got: nothing lost, nothing twice', async () => {
    const lastIds: (string | undefined)[] = [];
    server = await startHttpServer((req, res) => {
      const last = req.headers['last-event-id'];
      lastIds.push(typeof last === 'string' ? last : undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 10\n\n');
      const from = last === undefined ? 1 : Number(last.slice(1)) + 1;
      if (from > 9) {
        res.end();
        return;
      }
      writeEvents(res, from, from + 2);
      // The connection fails after three events, as a server restart or a proxy would cut it.
      setTimeout(() => res.destroy(), 20);
    });
    const received = await all({ baseUrl: server.url, params: { room: 'r' } });
    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ n })));
    expect(lastIds).toEqual([undefined, 'e3', 'e6', 'e9']);
  });

  it('gives up after maxReconnects connections in a row fail, with the connection error', async () => {
    let requests = 0;
    server = await startHttpServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 5\n\n');
      setTimeout(() => res.destroy(), 10);
    });
    const error = await all({ baseUrl: server.url, params: { room: 'r' }, maxReconnects: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(requests).toBe(3);
  });

  it('does not reopen a dropped JSON-lines stream, which has no ids to resume from', async () => {
    let requests = 0;
    server = await startHttpServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"n":1}\n');
      setTimeout(() => res.destroy(), 20);
    });
    const received: unknown[] = [];
    const error = await (async () => {
      for await (const message of readChannel(channel, { baseUrl: server?.url ?? '', params: { room: 'r' } }))
        received.push(message);
    })().catch((e: unknown) => e);
    expect(received).toEqual([{ n: 1 }]);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(requests).toBe(1);
  });

  it('stops at once when its signal aborts, with the abort, and reconnects no more', async () => {
    let requests = 0;
    server = await startHttpServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeEvents(res, 1, 1);
    });
    const controller = new AbortController();
    const received: unknown[] = [];
    const error = await (async () => {
      for await (const message of readChannel(channel, {
        baseUrl: server?.url ?? '',
        params: { room: 'r' },
        signal: controller.signal,
      })) {
        received.push(message);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(received).toEqual([{ n: 1 }]);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(requests).toBe(1);
  });
});
