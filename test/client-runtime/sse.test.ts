/**
 * streamEvents against real SSE over node:http, with the global fetch and with a given one: resume without loss or
 * duplicate, ends, auth, errors, validation, chunking, redirects, timeouts and aborts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiConnectionError,
  ApiUserAbortError,
  AuthenticationError,
  CasiError,
  NotFoundError,
} from '../../templates/client/errors.js';
import { type StreamEventsOptions, streamEvents } from '../../templates/client/sse.js';
import { ValidationError } from '../../templates/shared/errors.js';
import { random } from '../generated/random.js';
import { conversationEvents, envelope, isEnded, type TestEvent, validateTestEvent } from './helpers/events.js';
import { abortAfterCollections } from './helpers/gc.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import { closed, openSse, resumeIndex, sseMessage } from './helpers/sse.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Handler = Parameters<typeof startHttpServer>[0];

/**
 * The two ways every behaviour is checked: the global fetch (no `fetch` option), and a given fetch (here a wrapper of
 * the global one). `fetchCalls` counts the calls of the given one.
 */
let fetchCalls = 0;
const TRANSPORTS = [
  { name: 'the global fetch', transport: {} },
  {
    name: 'a given fetch',
    transport: {
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        fetchCalls++;
        return globalThis.fetch(input, init);
      },
    },
  },
] as const;

/** Starts `handler` and returns stream options over `transport` pointing at it, plus the requests it saw. */
async function serveWith(transport: Pick<StreamEventsOptions<TestEvent>, 'fetch'>, handler: Handler) {
  const requests: IncomingMessage[] = [];
  server = await startHttpServer((req, res) => {
    requests.push(req);
    return handler(req, res);
  });
  const options: StreamEventsOptions<TestEvent> = {
    ...transport,
    url: `${server.url}/conversations/conv_1/events`,
    headers: { 'Service-Version': '2025-06-19' },
    validator: validateTestEvent,
    isTerminal: isEnded,
    reconnectDelayMs: 1,
  };
  return { options, requests };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `bytes` cut at each offset of `cuts` (ascending), pausing between pieces so that each is its own chunk. */
async function writeInPieces(res: ServerResponse, bytes: Buffer, cuts: readonly number[]): Promise<void> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    res.write(bytes.subarray(start, cut));
    start = cut;
    await delay(10);
  }
}

async function collect<E>(stream: AsyncIterable<E>, limit = 100_000): Promise<E[]> {
  const out: E[] = [];
  for await (const event of stream) {
    out.push(event);
    if (out.length >= limit) break;
  }
  return out;
}

describe.each(TRANSPORTS)('streamEvents over $name', ({ name, transport }) => {
  const serve = (handler: Handler) => serveWith(transport, handler);

  it('survives 100 drops in 1,200 events with no loss and no duplicate', async () => {
    const events = conversationEvents(1200);
    const next = random(42);
    const cuts = new Set<number>();
    while (cuts.size < 100) cuts.add(1 + Math.floor(next() * (events.length - 2)));
    const pending = [...cuts].sort((a, b) => a - b);
    let connection = 0;
    const { options, requests } = await serve((req, res) => {
      connection++;
      // Every 7th reconnect replays three events the client already has; it must skip them.
      const start = Math.max(0, resumeIndex(events, req) - (connection % 7 === 0 ? 3 : 0));
      const cut = pending.find((index) => index >= start);
      const end = cut ?? events.length;
      openSse(res);
      const whole = events.slice(start, end).map(sseMessage).join('');
      if (cut === undefined) {
        res.end(whole);
        return;
      }
      pending.splice(pending.indexOf(cut), 1);
      const partial = sseMessage(events[cut] as TestEvent).slice(0, 25 + (cut % 40));
      // Half the cuts reset the connection, the other half end the body cleanly mid-message.
      if (cut % 2 === 0) res.write(whole + partial, () => req.socket.destroy());
      else res.end(whole + partial);
    });
    const received = await collect(streamEvents(options));
    expect(received.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(requests).toHaveLength(101);
    expect(pending).toEqual([]);
    expect(requests[1]?.headers['last-event-id']).toMatch(/^ev_/);
  });

  it('ends right after the terminal event, even when the server keeps the stream open', async () => {
    const events = conversationEvents(4);
    let gone: Promise<void> | undefined;
    const { options, requests } = await serve((req, res) => {
      gone = closed(req);
      openSse(res);
      res.write(events.map(sseMessage).join(''));
    });
    const received = await collect(streamEvents(options));
    expect(received).toEqual(events);
    await gone;
    expect(requests).toHaveLength(1);
  });

  it('ends on a 204, after reconnecting past the end when no terminal test is given', async () => {
    const events = conversationEvents(3);
    const { options, requests } = await serve((req, res) => {
      const start = resumeIndex(events, req);
      if (start >= events.length) {
        res.writeHead(204).end();
        return;
      }
      openSse(res);
      res.end(events.slice(start).map(sseMessage).join(''));
    });
    const received = await collect(streamEvents({ ...options, isTerminal: undefined }));
    expect(received).toEqual(events);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['last-event-id']).toBe(events[2]?.id);
  });

  it('closes the connection when the loop breaks', async () => {
    let gone: Promise<void> | undefined;
    const { options } = await serve((req, res) => {
      gone = closed(req);
      openSse(res);
      let index = 0;
      const timer = setInterval(() => res.write(sseMessage(envelope(index++, { type: 'user.dtmf.received' }))), 5);
      req.socket.once('close', () => clearInterval(timer));
    });
    let count = 0;
    for await (const _event of streamEvents(options)) {
      if (++count === 3) break;
    }
    const outcome = await Promise.race([
      gone?.then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 2000, 'still open')),
    ]);
    expect(outcome).toBe('closed');
  });

  it('calls the token provider on every connect and sends the token instead of the API key', async () => {
    const events = conversationEvents(7);
    const { options, requests } = await serve((req, res) => {
      const start = resumeIndex(events, req);
      openSse(res);
      res.end(
        events
          .slice(start, start + 2)
          .map(sseMessage)
          .join(''),
      );
    });
    let issued = 0;
    const received = await collect(streamEvents({ ...options, apiKey: 'sk_secret', token: () => `tok_${++issued}` }));
    expect(received).toEqual(events);
    const tokens = requests.map((req) => new URL(req.url ?? '', 'http://x').searchParams.get('token'));
    expect(tokens).toEqual(['tok_1', 'tok_2', 'tok_3', 'tok_4']);
    expect(requests.every((req) => req.headers.authorization === undefined)).toBe(true);
  });

  it('sends the API key, the version and Accept without a token', async () => {
    const events = conversationEvents(2);
    const { options, requests } = await serve((_req, res) => {
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    await collect(streamEvents({ ...options, apiKey: 'sk_1' }));
    expect(requests[0]?.headers).toMatchObject({
      authorization: 'Bearer sk_1',
      'service-version': '2025-06-19',
      accept: 'text/event-stream',
    });
  });

  it('starts after lastEventId and never delivers it again', async () => {
    const events = conversationEvents(5);
    const { options, requests } = await serve((req, res) => {
      openSse(res);
      // A server that replays from the Last-Event-ID event itself, one too early.
      res.end(
        events
          .slice(resumeIndex(events, req) - 1)
          .map(sseMessage)
          .join(''),
      );
    });
    const stream = streamEvents({ ...options, lastEventId: events[2]?.id });
    const received = await collect(stream);
    expect(received).toEqual(events.slice(3));
    expect(requests[0]?.headers['last-event-id']).toBe(events[2]?.id);
    expect(stream.lastEventId).toBe(events[4]?.id);
  });

  it('throws a ValidationError naming the pointer of an invalid event', async () => {
    const bad = { ...envelope(1, { type: 'agent.message.delta' }), payload: { type: 42 } };
    const { options, requests } = await serve((_req, res) => {
      openSse(res);
      res.write(sseMessage(envelope(0, { type: 'conversation.started' })));
      res.write(`id: ${bad.id}\ndata: ${JSON.stringify(bad)}\n\n`);
    });
    const received: TestEvent[] = [];
    const error = await (async () => {
      for await (const event of streamEvents(options)) received.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pointer)).toEqual(['/payload/type']);
    expect((error as Error).message).toContain('/payload/type');
    expect(received).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('loads the validator with loadValidator when iteration starts, and not at all when validate is false', async () => {
    const bad = { ...envelope(1, { type: 'agent.message.delta' }), payload: { type: 42 } };
    const { options } = await serve((_req, res) => {
      openSse(res);
      res.write(`id: ${bad.id}\ndata: ${JSON.stringify(bad)}\n\n`);
    });
    const { validator: _, ...unvalidated } = options;
    let loads = 0;
    const loadValidator = async () => {
      loads++;
      return validateTestEvent;
    };
    const stream = streamEvents({ ...unvalidated, loadValidator });
    expect(loads).toBe(0);
    await expect(collect(stream)).rejects.toBeInstanceOf(ValidationError);
    expect(loads).toBe(1);
    const [first] = await collect(streamEvents({ ...unvalidated, loadValidator, validate: false }), 1);
    expect(first).toEqual(bad);
    expect(loads).toBe(1);
  });

  it('skips validation when validate is false', async () => {
    const odd = { ...envelope(0, { type: 'x' }), payload: { type: 7 } };
    const { options } = await serve((_req, res) => {
      openSse(res);
      res.write(`id: ${odd.id}\ndata: ${JSON.stringify(odd)}\n\n`);
    });
    const [first] = await collect(streamEvents({ ...options, validate: false }), 1);
    expect(first).toEqual(odd);
  });

  it('throws the ApiError family without reconnecting on a 401', async () => {
    const { options, requests } = await serve((_req, res) => {
      sendJson(res, 401, { code: 'token_expired', transient: false, message: 'The token has expired.' });
    });
    const error = await collect(streamEvents(options)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'token_expired', status: 401 });
    expect(requests).toHaveLength(1);
  });

  it('reconnects after a transient 503', async () => {
    const events = conversationEvents(3);
    const { options, requests } = await serve((_req, res) => {
      if (requests.length === 1) {
        sendJson(res, 503, { code: 'service_unavailable', transient: true, message: 'Try again.' });
        return;
      }
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    expect(await collect(streamEvents(options))).toEqual(events);
    expect(requests).toHaveLength(2);
  });

  it('gives up after maxReconnects connections that deliver nothing', async () => {
    const { options, requests } = await serve((req) => {
      req.socket.destroy();
    });
    const error = await collect(streamEvents({ ...options, maxReconnects: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(requests).toHaveLength(4);
  });

  it('resumes a connection that goes silent longer than idleTimeoutMs', async () => {
    const events = conversationEvents(5);
    const { options, requests } = await serve((req, res) => {
      const start = resumeIndex(events, req);
      openSse(res);
      // The first connection sends two events and then nothing at all.
      if (start === 0) res.write(events.slice(0, 2).map(sseMessage).join(''));
      else res.end(events.slice(start).map(sseMessage).join(''));
    });
    const started = Date.now();
    expect(await collect(streamEvents({ ...options, idleTimeoutMs: 200 }))).toEqual(events);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(requests.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps a connection that is never silent for idleTimeoutMs, however long it lasts', async () => {
    const events = conversationEvents(8);
    const { options, requests } = await serve((_req, res) => {
      openSse(res);
      // One event every 60 ms: 420 ms in all, each gap well under the 150 ms idle timeout.
      let next = 0;
      const timer = setInterval(() => {
        res.write(sseMessage(events[next++] as TestEvent));
        if (next === events.length) clearInterval(timer);
      }, 60);
      res.on('close', () => clearInterval(timer));
    });
    expect(await collect(streamEvents({ ...options, idleTimeoutMs: 150 }))).toEqual(events);
    expect(requests).toHaveLength(1);
  });

  it('refuses an answer that is not an event stream', async () => {
    const { options, requests } = await serve((_req, res) => sendJson(res, 200, { not: 'a stream' }));
    await expect(collect(streamEvents(options))).rejects.toThrow(CasiError);
    expect(requests).toHaveLength(1);
  });

  it('stops with ApiUserAbortError when the signal aborts, closing the connection', async () => {
    let gone: Promise<void> | undefined;
    const { options } = await serve((req, res) => {
      gone = closed(req);
      openSse(res);
      res.write(sseMessage(envelope(0, { type: 'conversation.started' })));
    });
    const controller = new AbortController();
    const received: TestEvent[] = [];
    const error = await (async () => {
      for await (const event of streamEvents({ ...options, signal: controller.signal })) {
        received.push(event);
        setTimeout(() => controller.abort(), 20);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiUserAbortError);
    expect(received).toHaveLength(1);
    await gone;
  });

  it('fails without a request when the token provider throws', async () => {
    const { options, requests } = await serve((_req, res) => {
      res.end();
    });
    const failing = () => Promise.reject(new Error('refresh failed'));
    await expect(collect(streamEvents({ ...options, token: failing }))).rejects.toThrow('The token provider failed.');
    expect(requests).toHaveLength(0);
  });

  it('sends its requests with the fetch it was given, else with the global one', async () => {
    const events = conversationEvents(2);
    const { options, requests } = await serve((_req, res) => {
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    fetchCalls = 0;
    expect(await collect(streamEvents(options))).toEqual(events);
    expect(requests).toHaveLength(1);
    expect(fetchCalls).toBe(name === 'a given fetch' ? 1 : 0);
  });

  it('decodes UTF-8 characters split across chunks', async () => {
    const text = 'é 日本 🌍 ok';
    const events = [
      envelope(0, { type: 'agent.message.delta', text_delta: text, generation_id: 'gen_1' }),
      envelope(1, { type: 'conversation.ended', ended_by: 'agent' }),
    ];
    const bytes = Buffer.from(events.map(sseMessage).join(''));
    // Inside each character: after the first of the two bytes of é, two of the three of 日, three of the four of 🌍.
    const cuts = [
      bytes.indexOf(Buffer.from('é')) + 1,
      bytes.indexOf(Buffer.from('日')) + 2,
      bytes.indexOf(Buffer.from('🌍')) + 3,
    ];
    const { options } = await serve(async (_req, res) => {
      openSse(res);
      await writeInPieces(res, bytes, cuts);
      res.end();
    });
    const received = await collect(streamEvents(options));
    expect(received).toEqual(events);
    expect(received[0]?.payload.text_delta).toBe(text);
  });

  it('joins messages split across chunks anywhere', async () => {
    const events = conversationEvents(4);
    const wire = events.map(sseMessage);
    const bytes = Buffer.from(wire.join(''));
    // In every message: inside `id:`, inside the JSON, and between the two line feeds that end it.
    const cuts: number[] = [];
    let offset = 0;
    for (const message of wire) {
      cuts.push(offset + 2, offset + 40, offset + message.length - 1);
      offset += message.length;
    }
    const { options, requests } = await serve(async (_req, res) => {
      openSse(res);
      await writeInPieces(res, bytes, cuts);
    });
    expect(await collect(streamEvents(options))).toEqual(events);
    expect(requests).toHaveLength(1);
  });

  it('drops a byte order mark that opens the body', async () => {
    const events = conversationEvents(3);
    const { options } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // The first message has no `id:` line: a mark left in place would make `data:` an unknown field.
      res.end(`\uFEFFdata: ${JSON.stringify(events[0])}\n\n${events.slice(1).map(sseMessage).join('')}`);
    });
    expect(await collect(streamEvents(options))).toEqual(events);
  });

  it('delivers a large burst to a reader slower than the socket', async () => {
    const events = conversationEvents(3000);
    const { options, requests } = await serve((_req, res) => {
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    const received: TestEvent[] = [];
    for await (const event of streamEvents(options)) {
      received.push(event);
      if (received.length % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(received).toEqual(events);
    expect(requests).toHaveLength(1);
  });

  it('follows a redirect, keeping its headers on the same origin and dropping Authorization on another', async () => {
    const events = conversationEvents(4);
    const elsewhere: IncomingMessage[] = [];
    const other = await startHttpServer((req, res) => {
      elsewhere.push(req);
      openSse(res);
      res.end(events.slice(resumeIndex(events, req)).map(sseMessage).join(''));
    });
    try {
      const { options, requests } = await serve((req, res) => {
        if (req.url === '/conversations/conv_1/events') res.writeHead(307, { location: '/moved/events' }).end();
        else if (req.headers['last-event-id'] !== undefined) res.writeHead(302, { location: `${other.url}/x` }).end();
        else {
          openSse(res);
          res.end(events.slice(0, 2).map(sseMessage).join(''));
        }
      });
      expect(await collect(streamEvents({ ...options, apiKey: 'sk_1' }))).toEqual(events);
      expect(requests.map((req) => req.url)).toEqual([
        '/conversations/conv_1/events',
        '/moved/events',
        '/conversations/conv_1/events',
        '/moved/events',
      ]);
      expect(requests[1]?.headers).toMatchObject({ authorization: 'Bearer sk_1', accept: 'text/event-stream' });
      expect(elsewhere.map((req) => req.url)).toEqual(['/x']);
      expect(elsewhere[0]?.headers.authorization).toBeUndefined();
      expect(elsewhere[0]?.headers).toMatchObject({ 'last-event-id': events[1]?.id, 'service-version': '2025-06-19' });
    } finally {
      await other.close();
    }
  });

  it("reconnects after the delay of the server's retry: field, not its own", async () => {
    const events = conversationEvents(10);
    const { options, requests } = await serve((req, res) => {
      const start = resumeIndex(events, req);
      openSse(res, 1);
      res.end(
        events
          .slice(start, start + 2)
          .map(sseMessage)
          .join(''),
      );
    });
    // Four drops: waits drawn up to a minute each unless `retry: 1` replaced the base delay.
    const stream = streamEvents({ ...options, reconnectDelayMs: 60_000, maxReconnectDelayMs: 60_000 });
    const outcome = await Promise.race([collect(stream), delay(5000).then(() => 'too slow')]);
    expect(outcome).toEqual(events);
    expect(requests).toHaveLength(5);
  });

  it('stops with ApiUserAbortError when the signal aborts before the answer', async () => {
    let gone: Promise<void> | undefined;
    const { options } = await serve((req) => {
      gone = closed(req); // and never answers
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(collect(streamEvents({ ...options, signal: controller.signal }))).rejects.toBeInstanceOf(
      ApiUserAbortError,
    );
    await gone;
  });

  it('stops with ApiUserAbortError when the signal aborts after a garbage collection, before the answer', async () => {
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const { options } = await serve(() => arrived()); // and never answers
    const controller = new AbortController();
    const outcome = collect(streamEvents({ ...options, signal: controller.signal })).catch((e: unknown) => e);
    await arrival;
    const settled = await abortAfterCollections(controller, outcome, 5_000);
    expect(settled).toBeInstanceOf(ApiUserAbortError);
  });

  it('drops and resumes a connection whose answer does not come within idleTimeoutMs', async () => {
    const events = conversationEvents(3);
    const { options, requests } = await serve((_req, res) => {
      if (requests.length === 1) return; // the first request is never answered
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    expect(await collect(streamEvents({ ...options, idleTimeoutMs: 150 }))).toEqual(events);
    expect(requests).toHaveLength(2);
  });

  it("throws NotFoundError with a text body as its message and the answer's headers", async () => {
    const { options, requests } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain', 'x-request-id': 'req_1' });
      res.end('No such conversation.');
    });
    const error = await collect(streamEvents(options)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'unknown_error', message: 'No such conversation.' });
    expect((error as NotFoundError).headers.get('x-request-id')).toBe('req_1');
    expect(requests).toHaveLength(1);
  });
});

describe('streamEvents', () => {
  it('drops and resumes a connection whose body read does not settle when it is aborted', async () => {
    // Node's fetch can leave a read of an aborted response pending for ever (nodejs/node#56917): this first answer
    // sends nothing and ignores the abort the same way.
    let answered = 0;
    const stalling = (input: string | URL | Request, init?: RequestInit) =>
      answered++ === 0
        ? Promise.resolve(
            new Response(new ReadableStream({ pull: () => new Promise<void>(() => {}) }), {
              headers: { 'content-type': 'text/event-stream' },
            }),
          )
        : fetch(input, init);
    const events = conversationEvents(3);
    const { options, requests } = await serveWith({ fetch: stalling }, (_req, res) => {
      openSse(res);
      res.end(events.map(sseMessage).join(''));
    });
    expect(await collect(streamEvents({ ...options, idleTimeoutMs: 150 }))).toEqual(events);
    expect(answered).toBe(2);
    expect(requests).toHaveLength(1);
  });

  it('can be iterated only once', async () => {
    const stream = streamEvents({ url: 'http://127.0.0.1:9/never' });
    const iterator = stream[Symbol.asyncIterator]();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(CasiError);
    await iterator.return?.();
  });
});
