/**
 * A session in Node where the optional peer `ws` is not installed: with no global WebSocket (Node 20) it fails with a
 * `CasiError` that says what to do, not with a bare module-resolution error; with one (Node 22+) it connects with a
 * token and says what to do with an API key, which that WebSocket cannot send.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CasiError } from '../../templates/client/errors.js';
import { openLazySession } from '../../templates/client/lazy-session.js';
import { openSession } from '../../templates/client/websocket.js';
import { startHttpServer, type TestServer } from './helpers/http-server.js';

vi.mock('ws', () => {
  throw Object.assign(new Error("Cannot find package 'ws' imported from socket.js"), { code: 'ERR_MODULE_NOT_FOUND' });
});

let server: TestServer | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.close();
  server = undefined;
});

describe('without `ws` and without a global WebSocket', () => {
  it.each([
    ['openSession', openSession],
    ['openLazySession', openLazySession],
  ])('%s rejects ready and closed with a CasiError saying to install ws, and connects nowhere', async (_name, open) => {
    vi.stubGlobal('WebSocket', undefined);
    let upgrades = 0;
    server = await startHttpServer((_req, res) => {
      res.writeHead(404).end();
    });
    server.server.on('upgrade', (_req, socket) => {
      upgrades++;
      socket.destroy();
    });
    const session = open({ url: `${server.url}/conversations/conv_1/session`, apiKey: 'sk_test' });
    const error = await session.ready.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CasiError);
    expect((error as Error).message).toMatch(/install it \(`npm install ws`\) or pass one as the `WebSocket` option/i);
    // The import's own error is kept (vitest wraps the one the mock throws).
    expect((error as Error).cause).toBeInstanceOf(Error);
    await expect(session.closed).rejects.toBe(error);
    expect(session.state).toBe('closed');
    expect(upgrades).toBe(0);
  });
});

describe('without `ws`, with a global WebSocket', () => {
  /**
   * Stubs a header-less global WebSocket (the real `ws`, past the mock, ignoring its third argument) and starts a
   * WebSocket endpoint that accepts every handshake; `handshakes` holds each one's URL and headers.
   */
  async function start() {
    const actual = await vi.importActual<typeof import('ws')>('ws');
    vi.stubGlobal(
      'WebSocket',
      class extends actual.WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols);
        }
      },
    );
    const wss = new actual.WebSocketServer({ noServer: true });
    const handshakes: { url: URL; headers: Record<string, unknown> }[] = [];
    server = await startHttpServer((_req, res) => {
      res.writeHead(404).end();
    });
    const base = server.url;
    server.server.on('upgrade', (req, socket, head) => {
      handshakes.push({ url: new URL(req.url ?? '/', base), headers: req.headers });
      wss.handleUpgrade(req, socket, head, () => {});
    });
    return { url: `${base}/conversations/conv_1/session`, handshakes };
  }

  it('connects through it with the token and the version in the query', async () => {
    const { url, handshakes } = await start();
    const session = openSession({
      url,
      token: 'tok_1',
      headers: { 'Service-Version': '2025-06-19' },
      serviceVersion: '2025-06-19',
    });
    try {
      await session.ready;
      expect(handshakes).toHaveLength(1);
      expect(handshakes[0]?.url.searchParams.get('token')).toBe('tok_1');
      expect(handshakes[0]?.url.searchParams.get('service_version')).toBe('2025-06-19');
    } finally {
      session.close();
    }
  });

  it('refuses an API key without a token with a CasiError saying to pass a token or install ws', async () => {
    const { url, handshakes } = await start();
    const session = openSession({ url, apiKey: 'sk_test' });
    const error = await session.ready.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CasiError);
    expect((error as Error).message).toMatch(/pass `token` .*install `ws`/);
    expect(handshakes).toHaveLength(0);
  });
});
