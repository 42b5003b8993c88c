/**
 * Channel security from the corpus: the generated client places the credential as the document's scheme says (slack's
 * `httpApiKey` token in the query; a bearer token in the handshake's `Authorization` through `ws`), and the generated
 * routes' `authenticate` refuses a handshake without it with 401 before the upgrade.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { corpusGenerator, importGenerated, loopbackApps } from './channel-helpers.js';

const generated = corpusGenerator();
const listen = loopbackApps();

type Connect = (options: object) => Promise<{ closed: Promise<unknown>; close(): void }>;
type Authenticate = (
  request: { query: Record<string, unknown>; headers: IncomingHttpHeaders },
  channel: { name: string; security?: object },
) => unknown;

/** slack-rtm with its token scheme changed to http bearer. */
const slackBearer = {
  from: 'slack-rtm',
  change: (text: string) =>
    text.replace(
      '      type: httpApiKey\n      name: token\n      in: query',
      '      type: http\n      scheme: bearer',
    ),
};

/** The generated client and routes of `name`, served on loopback with `authenticate`; the base URL and what the handler saw. */
async function setUp(name: string, authenticate: Authenticate, edit?: typeof slackBearer) {
  const { out } = await generated(name, edit);
  const client = await importGenerated(out, 'channels.gen.ts');
  const server = await importGenerated(out, 'channel-routes.gen.ts');
  const { HttpError } = (await importGenerated(out, 'runtime/server/errors.ts')) as {
    HttpError: new (status: number, code: string, message: string) => Error;
  };
  const seen: unknown[] = [];
  const register = server.registerChannels as (app: FastifyInstance, handlers: object, options: object) => void;
  const refuse = () => {
    throw new HttpError(401, 'unauthorized', 'a token is needed');
  };
  const port = await listen((app) =>
    register(
      app,
      {
        root: async (request: { auth: unknown; query: unknown }, peer: { send(m: unknown): Promise<boolean> }) => {
          seen.push(request.auth, request.query);
          await peer.send({ type: 'hello' });
        },
      },
      { authenticate: (request: never, channel: never) => authenticate(request, channel) ?? refuse() },
    ),
  );
  return { connectRoot: client.connectRoot as Connect, baseUrl: `ws://127.0.0.1:${port}`, seen };
}

describe('slack-rtm: httpApiKey token in the query', () => {
  const authenticate: Authenticate = (request, channel) =>
    request.query.token === 'T-1' ? { user: 'U1', channel: channel.name, security: channel.security } : undefined;

  it('sends apiKey as the token query member, and the handler gets what authenticate returned', async () => {
    const { connectRoot, baseUrl, seen } = await setUp('slack-rtm', authenticate);
    const connection = await connectRoot({ baseUrl, params: {}, apiKey: 'T-1' });
    await expect.poll(() => seen.length).toBe(2);
    const security = { token: { type: 'apiKey', in: 'query', name: 'token' } };
    expect(seen).toEqual([{ user: 'U1', channel: 'root', security }, { token: 'T-1' }]);
    connection.close();
    await connection.closed;
  }, 60_000);

  it('is refused with 401 before the upgrade without the token, or with another one', async () => {
    const { connectRoot, baseUrl, seen } = await setUp('slack-rtm', authenticate);
    await expect(connectRoot({ baseUrl, params: {} })).rejects.toMatchObject({ status: 401 });
    await expect(connectRoot({ baseUrl, params: {}, apiKey: 'other' })).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual([]);
  }, 60_000);
});

describe('slack-rtm with an http bearer scheme: the token in the handshake header', () => {
  const authenticate: Authenticate = (request) =>
    request.headers.authorization === 'Bearer T-2' ? { user: 'U2' } : undefined;

  it('sends apiKey as Authorization: Bearer through ws, not in the query', async () => {
    const { connectRoot, baseUrl, seen } = await setUp('slack-rtm-bearer', authenticate, slackBearer);
    const connection = await connectRoot({ baseUrl, params: {}, apiKey: 'T-2' });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([{ user: 'U2' }, {}]);
    connection.close();
    await connection.closed;
    await expect(connectRoot({ baseUrl, params: {} })).rejects.toMatchObject({ status: 401 });
  }, 60_000);

  it('refuses to connect with a WebSocket that cannot send headers, naming the header', async () => {
    const { connectRoot, baseUrl } = await setUp('slack-rtm-bearer', authenticate, slackBearer);
    // The global WebSocket of the runtime sends no handshake headers, like a browser's.
    class HeaderlessWebSocket {}
    (globalThis as { WebSocket?: unknown }).WebSocket ??= HeaderlessWebSocket;
    const WebSocket = (globalThis as { WebSocket?: unknown }).WebSocket;
    await expect(connectRoot({ baseUrl, params: {}, apiKey: 'T-2', WebSocket })).rejects.toThrow(
      /credential in the Authorization header, which this WebSocket cannot send/,
    );
    if (WebSocket === HeaderlessWebSocket) delete (globalThis as { WebSocket?: unknown }).WebSocket;
  }, 60_000);
});
