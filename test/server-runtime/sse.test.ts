/** SSE routes over real HTTP: framing of the raw text, heartbeats, answers before opening, backpressure, close. */
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, type SseStream } from '../../templates/server/index.js';
import { expectError, goodHeaders, startServer, type TestHandlers, type TestServer } from './fixture.js';
import { readUntil, within } from './sse-io.js';

const BIG = 64 * 1024;
const FLOOD = 300;
const closed: (() => void)[] = [];
const flood = { maxBuffered: 0, pending: 0 };
const queued: number[] = [];

/** Answers according to `?mode=`. */
const thingEvents: TestHandlers['thingEvents'] = async (req, stream) => {
  const mode = req.query.mode;
  if (mode === 'none') return { status: 204 };
  if (mode === 'missing') throw new HttpError(404, 'not_found', 'No such thing.');
  if (mode === 'flood') return void (await floodStream(stream));
  if (mode === 'queue') return void (await queueStream(stream));
  stream.onClose(() => closed.shift()?.());
  stream.open({ retry: 1000 });
  await stream.sendJson({ n: 1, via: req.auth.via }, { id: 'ev_1' });
  await stream.send({ data: 'line one\nline two\r\nline three' });
  if (mode === 'end') stream.close();
  if (mode === 'fail') throw new Error('boom after open');
  return undefined;
};

/** A frozen value sent on every `?mode=queue` stream: formatted once per id, whatever the stream. */
const shared = Object.freeze({ n: 2, via: 'shared' });

async function queueStream(stream: SseStream): Promise<void> {
  stream.queueJson({ n: 1 }, { id: 'ev_1' });
  stream.queueJson(shared, { id: 'ev_2' });
  stream.queueJson(shared, { id: 'ev_3', event: 'again' });
  queued.push(stream.queuedLength);
  await stream.flush();
  queued.push(stream.queuedLength);
  stream.queueJson(shared, { id: 'ev_2' });
  stream.close();
}

async function floodStream(stream: SseStream): Promise<void> {
  const data = 'x'.repeat(BIG);
  for (let i = 0; i < FLOOD; i++) {
    let settled = false;
    const sent = stream.send({ id: String(i), data }).then((ok) => {
      settled = true;
      return ok;
    });
    flood.maxBuffered = Math.max(flood.maxBuffered, stream.bufferedBytes);
    await Promise.resolve();
    if (!settled) flood.pending++;
    if (!(await sent)) return;
  }
  stream.close();
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ handlers: { thingEvents }, sseHeartbeatMs: 100 });
});
afterAll(() => server.close());

function open(query: string, headers: Record<string, string> = goodHeaders, signal?: AbortSignal) {
  return fetch(`${server.url}/things/th_1/events${query}`, { headers, ...(signal ? { signal } : {}) });
}

describe('an open stream', () => {
  it('sends the SSE headers, retry, id/data frames with one data line per line, and heartbeats', async () => {
    const controller = new AbortController();
    const response = await open('?mode=live', goodHeaders, controller.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const { text } = await readUntil(response, (t) => t.split(': heartbeat\n\n').length > 2);
    controller.abort();
    expect(text).toBe(
      'retry: 1000\n\n' +
        'id: ev_1\ndata: {"n":1,"via":"header"}\n\n' +
        'data: line one\ndata: line two\ndata: line three\n\n' +
        ': heartbeat\n\n: heartbeat\n\n',
    );
  });

  it('detects the client leaving', async () => {
    const left = new Promise<void>((resolve) => closed.push(resolve));
    const controller = new AbortController();
    const response = await open('?mode=live', goodHeaders, controller.signal);
    await readUntil(response, (t) => t.includes('line three'));
    controller.abort();
    await within(left, 2000, 'the server to see the client leave');
  });

  it('ends when the handler closes it', async () => {
    const { text, ended } = await readUntil(await open('?mode=end'), () => false);
    expect(ended).toBe(true);
    expect(text).toMatch(/^retry: 1000\n\nid: ev_1\n/);
  });

  it('ends, and logs, when the handler throws after opening', async () => {
    const { ended } = await readUntil(await open('?mode=fail'), () => false);
    expect(ended).toBe(true);
    expect(server.logs.join('\n')).toContain('boom after open');
  });

  it('waits for the client to drain before resolving sends, and exposes the buffered bytes', async () => {
    const received = await new Promise<{ status: number; bytes: number; events: number }>((resolve, reject) => {
      const request = get(`${server.url}/things/th_1/events?mode=flood`, { headers: goodHeaders }, (response) => {
        response.pause();
        let bytes = 0;
        let tail = '';
        let events = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const text = tail + chunk.toString('latin1');
          events += text.split('\n\n').length - 1;
          tail = text.slice(text.lastIndexOf('\n\n') + 2);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, events }));
        setTimeout(() => response.resume(), 300);
      });
      request.on('error', reject);
    });
    expect(received.status).toBe(200);
    expect(received.events).toBe(FLOOD);
    expect(flood.pending).toBeGreaterThan(0);
    expect(flood.maxBuffered).toBeGreaterThan(0);
  });

  it('writes queued messages at flush, and what is still queued before the end; frozen values by id', async () => {
    for (let i = 0; i < 2; i++) {
      const { text, ended } = await readUntil(await open('?mode=queue'), () => false);
      expect(ended).toBe(true);
      const first = 'id: ev_1\ndata: {"n":1}\n\n';
      const second = 'id: ev_2\ndata: {"n":2,"via":"shared"}\n\n';
      const third = 'id: ev_3\nevent: again\ndata: {"n":2,"via":"shared"}\n\n';
      expect(text).toBe(first + second + third + second);
      expect(queued.splice(0)).toEqual([(first + second + third).length, 0]);
    }
  });

  it('accepts the conversation token and the service_version query parameter instead of headers', async () => {
    const { text } = await readUntil(await open('?mode=end&token=tok&service_version=2025-06-19', {}), () => false);
    expect(text).toContain('data: {"n":1,"via":"token"}\n');
  });
});

describe('before the stream opens', () => {
  it('the handler may answer 204', async () => {
    const response = await open('?mode=none');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('the handler may throw an HttpError', async () => {
    await expectError(await open('?mode=missing'), 404, 'not_found');
  });

  it('a given Service-Version must be valid, as header or query parameter', async () => {
    await expectError(await open('?service_version=2020-01-01'), 400, 'unsupported_service_version');
    const header = { ...goodHeaders, 'service-version': 'latest' };
    await expectError(await open('', header), 400, 'unsupported_service_version');
  });

  it('unknown query parameters and wrong tokens are refused', async () => {
    const body = await expectError(await open('?mode=end&colour=red'), 400, 'invalid_request');
    expect(body.data).toEqual([{ in: 'query', pointer: '/colour', message: 'must NOT have additional properties' }]);
    await expectError(await open('?token=wrong', {}), 401, 'unauthorized');
  });
});

describe('closing the server', () => {
  it('ends the open streams instead of waiting for them', async () => {
    const other = await startServer({ handlers: { thingEvents } });
    const response = await fetch(`${other.url}/things/th_1/events?mode=live`, { headers: goodHeaders });
    await readUntil(response, (t) => t.includes('line three'));
    await within(other.close(), 3000, 'the server to close');
    const { ended } = await readUntil(response, () => false, 2000);
    expect(ended).toBe(true);
  });
});
