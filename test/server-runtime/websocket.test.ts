/** WebSocket routes over real `ws` sockets: upgrade, refused handshakes, JSON round trips, liveness, closing. */
import { connect as connectTcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { errorValidator, goodHeaders, startServer, type TestHandlers, type TestServer } from './fixture.js';
import { sleep, within } from './sse-io.js';

const serverCloses: [number, string][] = [];

/** Greets, then echoes; `bye` closes with 4000; `?last_event_id=late` listens late; `=throw` fails. */
const thingSession: TestHandlers['thingSession'] = async (req, socket) => {
  if (req.query.last_event_id === 'throw') throw new Error('session handler failed');
  socket.onClose((code, reason) => serverCloses.push([code, reason]));
  await socket.sendJson({ n: 0, via: req.auth.via, thing: req.params.thing_id });
  if (req.query.last_event_id === 'late') await sleep(100);
  socket.onMessage((text) => {
    if (text === 'bye') socket.close(4000, 'bye');
    else void socket.sendJson({ n: 1, echo: text });
  });
};

let server: TestServer;
let wsUrl: string;
beforeAll(async () => {
  server = await startServer({ handlers: { thingSession }, pingIntervalMs: 100, maxPayload: 4096 });
  wsUrl = server.url.replace(/^http/, 'ws');
});
afterAll(() => server.close());

/** Opens a client and collects its messages as parsed JSON. */
function connect(path: string, headers: Record<string, string> = goodHeaders, autoPong = true) {
  const socket = new WebSocket(`${wsUrl}${path}`, { headers, autoPong });
  const messages: unknown[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const closed = new Promise<[number, string]>((resolve) => {
    socket.once('close', (code, reason) => resolve([code, String(reason)]));
  });
  /** Resolves once `count` messages have arrived. */
  const received = async (count: number) => {
    for (let i = 0; i < 200 && messages.length < count; i++) await sleep(10);
    return messages;
  };
  return { socket, opened, closed, received };
}

/** Attempts a handshake that the server must refuse; returns the HTTP status, headers and JSON body. */
function refusal(path: string, headers: Record<string, string> = goodHeaders) {
  return new Promise<{
    status: number;
    body: { code: string; data?: unknown };
    contentType: string | undefined;
    challenge: string | undefined;
  }>((resolve, reject) => {
    const socket = new WebSocket(`${wsUrl}${path}`, { headers });
    socket.once('open', () => reject(new Error('the handshake was accepted')));
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += String(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(text),
          contentType: response.headers['content-type'],
          challenge: response.headers['www-authenticate'],
        }),
      );
    });
    socket.once('error', () => undefined);
  });
}

describe('an accepted session', () => {
  it('passes the validated request to the handler and round-trips JSON', async () => {
    const client = connect('/things/th_42/session?last_event_id=ev_1');
    await within(client.opened, 2000, 'the upgrade');
    expect(await client.received(1)).toEqual([{ n: 0, via: 'header', thing: 'th_42' }]);
    client.socket.send('hello');
    expect(await client.received(2)).toEqual([
      { n: 0, via: 'header', thing: 'th_42' },
      { n: 1, echo: 'hello' },
    ]);
    client.socket.close(1000, 'done');
    await client.closed;
    for (let i = 0; i < 100 && !serverCloses.some(([code]) => code === 1000); i++) await sleep(10);
    expect(serverCloses).toContainEqual([1000, 'done']);
  });

  it('keeps the messages that arrive before the handler listens', async () => {
    const client = connect('/things/th_1/session?last_event_id=late&token=tok', {});
    await within(client.opened, 2000, 'the upgrade');
    for (const text of ['a', 'b', 'c']) client.socket.send(text);
    const messages = await client.received(4);
    expect(messages.slice(1)).toEqual(['a', 'b', 'c'].map((echo) => ({ n: 1, echo })));
    expect(messages[0]).toMatchObject({ via: 'token' });
    client.socket.close();
  });

  it('lets the handler close with a code and reason', async () => {
    const client = connect('/things/th_1/session');
    await within(client.opened, 2000, 'the upgrade');
    client.socket.send('bye');
    expect(await within(client.closed, 2000, 'the close')).toEqual([4000, 'bye']);
  });

  it('closes with 1011 when the handler throws', async () => {
    const client = connect('/things/th_1/session?last_event_id=throw');
    expect(await within(client.closed, 2000, 'the close')).toEqual([1011, 'internal error']);
    expect(server.logs.join('\n')).toContain('session handler failed');
  });

  it('closes with 1009 on a message over maxPayload', async () => {
    const client = connect('/things/th_1/session');
    await within(client.opened, 2000, 'the upgrade');
    client.socket.send('x'.repeat(5000));
    const [code] = await within(client.closed, 2000, 'the close');
    expect(code).toBe(1009);
  });

  it('terminates a client that does not answer pings, and keeps one that does', async () => {
    const silent = connect('/things/th_1/session', goodHeaders, false);
    const healthy = connect('/things/th_1/session');
    await within(Promise.all([silent.opened, healthy.opened]), 2000, 'the upgrades');
    const [code] = await within(silent.closed, 2000, 'the silent client to be dropped');
    expect(code).toBe(1006);
    await sleep(250);
    expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
    healthy.socket.close();
  });
});

describe('a refused handshake answers HTTP with the Error body', () => {
  it.each([
    ['no credentials', '/things/th_1/session', {}, 401, 'unauthorized'],
    ['a wrong token', '/things/th_1/session?token=nope', {}, 401, 'unauthorized'],
    [
      'an unsupported version',
      '/things/th_1/session?service_version=1999-01-01',
      goodHeaders,
      400,
      'unsupported_service_version',
    ],
    ['an invalid path parameter', '/things/TH/session', goodHeaders, 404, 'not_found'],
    ['an unknown query parameter', '/things/th_1/session?colour=red', goodHeaders, 400, 'invalid_request'],
    ['an unknown path', '/nowhere', goodHeaders, 404, 'route_not_found'],
  ])('%s → %i %s', async (_, path, headers, status, code) => {
    const answer = await within(refusal(path, headers), 2000, 'the refusal');
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
    expect(errorValidator(answer.body)).toBe(true);
    expect(answer.contentType).toBe('application/json; charset=utf-8');
    expect(answer.challenge).toBe(status === 401 ? 'Bearer' : undefined);
  });

  it('lists the problems of an invalid handshake', async () => {
    const answer = await refusal('/things/th_1/session?colour=red');
    expect(answer.body.data).toEqual([
      { in: 'query', pointer: '/colour', message: 'must NOT have additional properties' },
    ]);
  });
});

/** Sends one raw HTTP/1.1 request and returns everything the server writes until it closes the connection. */
function rawRequest(path: string, headers: Record<string, string>): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    const lines = Object.entries({ host: 'localhost', ...headers }).map(([name, value]) => `${name}: ${value}`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  });
}

describe('other protocol upgrades', () => {
  const h2c = {
    ...goodHeaders,
    connection: 'Upgrade, HTTP2-Settings',
    upgrade: 'h2c',
    'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA',
  };

  it('are answered as plain HTTP (curl --http2 on http://)', async () => {
    const text = await within(rawRequest('/things/th_7', h2c), 2000, 'the answer');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('{"id":"th_7","name":"thing"}');
  });

  it('on a WebSocket route, are refused as a request that does not ask for a WebSocket', async () => {
    const text = await within(rawRequest('/things/th_7/session', h2c), 2000, 'the answer');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('"pointer":"/upgrade"');
  });
});

describe('closing the server', () => {
  it('closes the open sessions with 1001', async () => {
    const other = await startServer({ handlers: { thingSession } });
    const client = new WebSocket(`${other.url.replace(/^http/, 'ws')}/things/th_1/session`, { headers: goodHeaders });
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    await within(new Promise((resolve) => client.once('open', resolve)), 2000, 'the upgrade');
    await within(other.close(), 3000, 'the server to close');
    expect(await within(closed, 2000, 'the client to see the close')).toBe(1001);
  });
});
