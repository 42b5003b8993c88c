/**
 * This service's WebSocket routes (`casiRoutes`) and AsyncAPI channel routes (`registerChannelRoutes`) on one Fastify
 * app, registered in either order: each upgrade reaches the listener that owns its path, and a path neither owns
 * gets exactly one 404 answer.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerChannelRoutes } from '../../templates/server/channel-routes.js';
import { casiRoutes } from '../../templates/server/index.js';
import type { ChannelDescriptor } from '../../templates/shared/channel.js';
import { authenticate, defaultHandlers, goodHeaders, routes, type TestHandlers, validator } from './fixture.js';

const channel: ChannelDescriptor = {
  name: 'ticks',
  address: '/ticks/{market}',
  receive: {
    validators: {
      tick: validator('Tick', { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }),
    },
    keys: { tick: ['tick'] },
  },
  send: { validators: {}, keys: {} },
};

const thingSession: TestHandlers['thingSession'] = async (req, socket) => {
  await socket.sendJson({ thing: req.params.thing_id });
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** One app with both kinds of WebSocket routes, the channel's registered first or last; its `ws://` base. */
async function serveBoth(channelsFirst: boolean): Promise<string> {
  app = Fastify();
  const addChannels = (target: FastifyInstance) =>
    registerChannelRoutes(target, [
      {
        channel,
        handler: async (request: { params: { market: string } }, peer: { send(m: unknown): Promise<boolean> }) => {
          await peer.send({ n: request.params.market.length });
        },
      },
    ]);
  if (channelsFirst) addChannels(app);
  casiRoutes(app, { routes, authenticate, handlers: { ...defaultHandlers, thingSession } });
  if (!channelsFirst) addChannels(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The first message of a socket to `url`, or the HTTP status (and how many answers arrived) of a refusal. */
function firstMessage(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('message', (data) => {
      resolve(JSON.parse(String(data)));
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += String(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, text }));
    });
    socket.once('error', reject);
  });
}

describe.each([true, false])('both on one app (channel routes registered first: %s)', (channelsFirst) => {
  it('serves a channel and a session over the same server', async () => {
    const base = await serveBoth(channelsFirst);
    expect(await firstMessage(`${base}/ticks/eu`)).toEqual({ n: 2 });
    expect(await firstMessage(`${base}/things/th_7/session`, goodHeaders)).toEqual({ thing: 'th_7' });
  });

  it('answers a path neither owns with a single 404', async () => {
    const base = await serveBoth(channelsFirst);
    const refused = (await firstMessage(`${base}/nowhere`)) as { status: number; text: string };
    expect(refused.status).toBe(404);
    // One JSON body: a second listener answering too would append another answer or break the first.
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'route_not_found' });
  });
});
