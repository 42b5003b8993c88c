/**
 * The WebSocket channel client over a real `ws` server: messages both ways, and `reconnect` (opt-in) opening the
 * socket again after the server drops it, with the same iterator going on, and not after the client closes it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { openChannel } from '../../templates/client/channel-socket.js';
import type { ChannelDescriptor } from '../../templates/shared/channel.js';
import { type CompiledValidate, fromCompiled } from '../../templates/shared/validation.js';

const ajv = new Ajv({ allErrors: true });
const numbered = (name: string) =>
  fromCompiled(
    ajv.compile({ type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }) as CompiledValidate,
    name,
  );
const channel: ChannelDescriptor = {
  name: 'ticks',
  address: '/ticks',
  receive: { validators: { tick: numbered('tick') }, keys: { tick: ['tick'] } },
  send: { validators: { ask: numbered('ask') }, keys: { ask: ['ask'] } },
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A `ws` server on loopback that calls `onConnection` with each socket and its number (from 1). */
async function startServer(onConnection: (socket: WebSocket, n: number) => void): Promise<string> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  let count = 0;
  wss.on('connection', (socket) => onConnection(socket, ++count));
  http.on('close', () => wss.close());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server = http;
  return `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

describe('openChannel', () => {
  it('sends validated messages and reads the answers; without reconnect a dropped socket ends the iterator', async () => {
    const baseUrl = await startServer((socket) => {
      socket.on('message', (data) => {
        const { n } = JSON.parse(String(data)) as { n: number };
        socket.send(JSON.stringify({ n: n * 10 }));
        if (n === 2) socket.terminate();
      });
    });
    const connection = await openChannel(channel, { baseUrl, params: {} });
    connection.send({ n: 1 });
    connection.send({ n: 2 });
    expect(() => connection.send({ n: 'three' } as never)).toThrow(/\/n: must be integer/);
    const received: unknown[] = [];
    for await (const message of connection) received.push(message);
    expect(received).toEqual([{ n: 10 }, { n: 20 }]);
    expect((await connection.closed).code).toBe(1006);
  });

  it('with reconnect, opens the socket again after a drop and the same iterator goes on', async () => {
    const baseUrl = await startServer((socket, n) => {
      socket.send(JSON.stringify({ n }));
      // The first two connections fail as a restarting server's would; the third stays until the client closes.
      if (n === 1) socket.terminate();
      if (n === 2) socket.close(1012, 'restarting');
    });
    let reconnects = 0;
    const connection = await openChannel(channel, {
      baseUrl,
      params: {},
      reconnect: { reconnectDelayMs: 10 },
      onReconnect: () => reconnects++,
    });
    const received: unknown[] = [];
    for await (const message of connection) {
      received.push(message);
      if (received.length === 3) connection.close();
    }
    expect(received).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(reconnects).toBe(2);
    expect((await connection.closed).code).toBe(1000);
  });

  it('does not reconnect after a normal close by the server, nor past its budget', async () => {
    let connections = 0;
    const baseUrl = await startServer((socket) => {
      connections++;
      socket.close(1000, 'done');
    });
    const normal = await openChannel(channel, { baseUrl, params: {}, reconnect: true });
    expect((await normal.closed).code).toBe(1000);
    expect(connections).toBe(1);
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    connections = 0;
    const dropping = await startServer((socket) => {
      connections++;
      socket.terminate();
    });
    const budgeted = await openChannel(channel, {
      baseUrl: dropping,
      params: {},
      reconnect: { reconnectDelayMs: 5, maxReconnects: 2 },
    });
    const closed = await budgeted.closed;
    expect(closed.code).toBe(1006);
    expect(connections).toBe(3);
  });
});
