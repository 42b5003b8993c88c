/**
 * A session in a runtime with no global WebSocket (Node 20) where the optional peer `ws` is not installed: it fails
 * with a `CasiError` that says what to do, not with a bare module-resolution error.
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
