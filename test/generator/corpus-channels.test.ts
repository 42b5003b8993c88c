/**
 * The WebSocket AsyncAPI documents of the corpus (`../shared/spec-corpus/`): the generated client exchanges messages
 * with the generated server over a real socket, each validating; the MQTT documents get a notice and no client.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { corpusGenerator, importGenerated, loopbackApps } from './channel-helpers.js';
import { ROOT } from './helpers.js';

const generated = corpusGenerator();
const listen = loopbackApps();

// The generated modules are typed by the generated code itself; here they are used through these shapes.
type Listener = (message: Record<string, unknown>) => void;
interface Connection extends AsyncIterable<Record<string, unknown>> {
  send(message: unknown): void;
  on(key: string, listener: Listener): () => void;
  onInvalid(listener: (error: Error, data: unknown) => void): () => void;
  close(): void;
  closed: Promise<{ code: number }>;
}
interface Peer {
  send(message: unknown): Promise<boolean>;
  on(key: string, listener: Listener): void;
  raw: WebSocket;
}
type Handler = (request: { params: unknown; query: unknown }, peer: Peer) => void | Promise<void>;

/** The generated client and server modules of a package written to `out`. */
async function modules(out: string) {
  const [client, server] = await Promise.all([
    importGenerated(out, 'channels.gen.ts'),
    importGenerated(out, 'channel-routes.gen.ts'),
  ]);
  return {
    client: client as Record<string, (options: object) => Promise<Connection>>,
    registerChannels: server.registerChannels as (app: FastifyInstance, handlers: Record<string, Handler>) => void,
  };
}

/** A loopback app set up by `register`; resolves to its `ws://` base URL. */
async function serve(register: (app: FastifyInstance) => void): Promise<string> {
  return `ws://127.0.0.1:${await listen(register)}`;
}

/** The first message of `key` on `connection`; rejects if the connection closes first. */
function first(connection: Connection, key: string): Promise<Record<string, unknown>> {
  const message = new Promise<Record<string, unknown>>((resolve) => {
    let done = false;
    const stop = connection.on(key, (received) => {
      if (!done) resolve(received);
      done = true;
    });
    if (done) stop();
  });
  const closed = connection.closed.then(({ code }) => Promise.reject(new Error(`closed with ${code}`)));
  return Promise.race([message, closed]);
}

describe('gemini-websocket (2.6, wss, subscribe only)', () => {
  const heartbeat = { type: 'heartbeat', socket_sequence: 0 };

  it('sends the server a market message the client receives, with the address parameter and typed query', async () => {
    const { out } = await generated('gemini-websocket');
    const { client, registerChannels } = await modules(out);
    const seen: unknown[] = [];
    const refused: unknown[] = [];
    const baseUrl = await serve((server) =>
      registerChannels(server, {
        v1MarketdataSymbol: async (request, peer) => {
          seen.push(request.params, request.query);
          await peer.send({ type: 'heartbeat' }).catch((error: unknown) => refused.push(error));
          await peer.send(heartbeat);
        },
      }),
    );
    const connection = await client.connectV1MarketdataSymbol?.({
      baseUrl,
      params: { symbol: 'btcusd' },
      query: { heartbeat: true },
    });
    expect(await first(connection as Connection, 'heartbeat')).toEqual(heartbeat);
    expect(seen).toEqual([{ symbol: 'btcusd' }, { heartbeat: true }]);
    // The server's `send` refused the message without its required socket_sequence.
    expect(refused).toHaveLength(1);
    expect(String(refused[0])).toMatch(/ValidationError: .*socket_sequence/);
    connection?.close();
  }, 60_000);

  it('keeps an invalid received message from the client, and refuses a query its ws binding does not allow', async () => {
    const { out } = await generated('gemini-websocket');
    const { client, registerChannels } = await modules(out);
    const baseUrl = await serve((server) =>
      registerChannels(server, {
        v1MarketdataSymbol: async (_request, peer) => {
          peer.raw.send(JSON.stringify({ type: 'update', socket_sequence: 'one' }));
          await peer.send(heartbeat);
        },
      }),
    );
    const connection = (await client.connectV1MarketdataSymbol?.({
      baseUrl,
      params: { symbol: 'ethusd' },
    })) as Connection;
    const invalid: unknown[] = [];
    connection.onInvalid((_error, data) => invalid.push(data));
    const received: unknown[] = [];
    for await (const message of connection) {
      received.push(message);
      break;
    }
    expect(received).toEqual([heartbeat]);
    expect(invalid).toEqual([{ type: 'update', socket_sequence: 'one' }]);
    connection.close();
    await expect(
      client.connectV1MarketdataSymbol?.({ baseUrl, params: { symbol: 'btcusd' }, query: { heartbeat: 'maybe' } }),
    ).rejects.toMatchObject({ status: 400 });
  }, 60_000);
});

describe('slack-rtm (3.0, one channel, send and receive over an https server)', () => {
  it('exchanges messages both ways, narrowed by their type', async () => {
    const { out } = await generated('slack-rtm');
    const { client, registerChannels } = await modules(out);
    const baseUrl = await serve((server) =>
      registerChannels(server, {
        root: async (_request, peer) => {
          peer.on('message', (message) => {
            void peer.send({ type: 'message', channel: message.channel, text: `echo: ${message.text}`, ts: '1' });
          });
          await peer.send({ type: 'hello' });
        },
      }),
    );
    const connection = (await client.connectRoot?.({ baseUrl, params: {} })) as Connection;
    expect(await first(connection, 'hello')).toEqual({ type: 'hello' });
    const echo = first(connection, 'message');
    connection.send({ id: 1, type: 'message', channel: 'C1', text: 'hi' });
    expect(await echo).toEqual({ type: 'message', channel: 'C1', text: 'echo: hi', ts: '1' });
    // The client's validator refuses a message the channel does not carry.
    expect(() => connection.send({ id: 'one', type: 'message' })).toThrow(
      /channel root is invalid: \/id: must be number/,
    );
    connection.close();
  }, 60_000);

  it('closes with 1007 a socket that sends the server an invalid message', async () => {
    const { out } = await generated('slack-rtm');
    const { registerChannels } = await modules(out);
    const baseUrl = await serve((server) => registerChannels(server, { root: () => {} }));
    const socket = new WebSocket(`${baseUrl}/`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'message', id: 'not a number' }));
    expect(await closed).toBe(1007);
  }, 60_000);
});

describe('the generated channel types', () => {
  it('narrow received messages by their discriminating member (tsc --strict)', async () => {
    const [gemini, slack] = await Promise.all([generated('gemini-websocket'), generated('slack-rtm')]);
    // Each line marked @ts-expect-error must fail to compile, and every other line must compile.
    writeFileSync(
      join(gemini.out, 'src', 'narrowing.ts'),
      [
        "import type { V1MarketdataSymbolReceivedByKey as ByKey } from './channels.gen.js';",
        "export const beat: ByKey['heartbeat'] = { type: 'heartbeat', socket_sequence: 1 };",
        '// @ts-expect-error an update is not a heartbeat',
        "export const update: ByKey['heartbeat'] = { type: 'update', socket_sequence: 1, eventId: 1, events: [], timestamp: 1, timestampms: 1 };",
      ].join('\n'),
    );
    writeFileSync(
      join(slack.out, 'src', 'narrowing.ts'),
      [
        "import type { RootReceivedByKey as ByKey, RootSent } from './channels.gen.js';",
        "export const hello: ByKey['hello'] = { type: 'hello' };",
        '// @ts-expect-error an error event is not a hello',
        "export const notHello: ByKey['hello'] = { type: 'error' };",
        "export const sent: RootSent = { id: 1, type: 'message', channel: 'C1', text: 'hi' };",
        '// @ts-expect-error the id the client sends is a number',
        "export const badId: RootSent = { id: 'one' };",
      ].join('\n'),
    );
    const tsconfig = join(dirname(gemini.out), 'tsconfig.narrowing.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: [join(gemini.out, 'src', 'narrowing.ts'), join(slack.out, 'src', 'narrowing.ts')],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = promisify(execFile)(process.execPath, [tsc, '-p', tsconfig], { maxBuffer: 1 << 24 });
    await expect(
      run.then(
        () => 'compiled',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      ),
    ).resolves.toBe('compiled');
  }, 120_000);
});

describe.each(['streetlights-mqtt', 'correlation-id'])('%s (MQTT)', (name) => {
  it('gets one notice naming mqtt, the message types, and no client or server', async () => {
    const { files, diagnostics } = await generated(name);
    const notices = diagnostics.filter((d) => d.message.includes('no client'));
    expect(notices.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'no client and no server are generated for mqtt: its channels get types and validators only'],
    ]);
    const channels = files.find((f) => f.path === 'src/channels.gen.ts')?.content ?? '';
    expect(channels).toContain('No client is generated for mqtt');
    expect(channels).not.toMatch(/export (async )?function connect/);
    expect(files.some((f) => f.path === 'src/channel-routes.gen.ts')).toBe(false);
  }, 60_000);
});
