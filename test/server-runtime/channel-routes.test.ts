/**
 * The channel routes' handshake: address parameters outside their enum, headers and a query that break the `ws`
 * binding's schemas are refused with 400 before the upgrade; a fitting handshake reaches the handler, typed.
 */
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerChannelRoutes } from '../../templates/server/channel-routes.js';
import type { ChannelDescriptor } from '../../templates/shared/channel.js';
import { type CompiledValidate, fromCompiled } from '../../templates/shared/validation.js';

const ajv = new Ajv({ allErrors: true });
const validator = (name: string, schema: object) => fromCompiled(ajv.compile(schema) as CompiledValidate, name);

const tick = { type: 'object', required: ['kind'], properties: { kind: { const: 'tick' }, n: { type: 'integer' } } };
const channel: ChannelDescriptor = {
  name: 'ticks',
  address: '/ticks/{market}',
  receive: { discriminator: 'kind', validators: { tick: validator('tick', tick) }, keys: { tick: ['tick'] } },
  send: { validators: {}, keys: {} },
  parameters: { market: ['eu', 'us'] },
  headers: {
    validator: validator('TicksHeaders', {
      type: 'object',
      required: ['X-Client'],
      properties: { 'X-Client': { type: 'string', pattern: '^[a-z]+$' } },
    }),
    names: ['X-Client'],
  },
  query: {
    validator: validator('TicksQuery', { type: 'object', properties: { depth: { type: 'integer', maximum: 10 } } }),
    types: { depth: 'integer' },
  },
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Serves `channel` on loopback; its handler records each request and sends one tick. */
async function serve(requests: unknown[]): Promise<string> {
  app = Fastify();
  registerChannelRoutes(app, [
    {
      channel,
      handler: async (request: { params: unknown; query: unknown }, peer: { send(m: unknown): Promise<boolean> }) => {
        requests.push(request.params, request.query);
        await peer.send({ kind: 'tick', n: 1 });
      },
    },
  ]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The first message of a handshake that succeeds, or the status of a refused one. */
function handshake(url: string, headers: Record<string, string>): Promise<{ message: unknown } | { status: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('message', (data) => {
      resolve({ message: JSON.parse(String(data)) });
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('channel routes', () => {
  it('passes a fitting handshake to the handler with the query typed by the binding', async () => {
    const requests: unknown[] = [];
    const base = await serve(requests);
    expect(await handshake(`${base}/ticks/eu?depth=3`, { 'x-client': 'web' })).toEqual({
      message: { kind: 'tick', n: 1 },
    });
    expect(requests).toEqual([{ market: 'eu' }, { depth: 3 }]);
  });

  it.each([
    ['a parameter outside its enum', '/ticks/asia', { 'x-client': 'web' }],
    ['a missing required header', '/ticks/eu', {}],
    ['a header its schema refuses', '/ticks/eu', { 'x-client': 'Web 2' }],
    ['a query its schema refuses', '/ticks/eu?depth=30', { 'x-client': 'web' }],
  ])('refuses %s with 400 before the upgrade', async (_case, path, headers) => {
    const requests: unknown[] = [];
    const base = await serve(requests);
    expect(await handshake(`${base}${path}`, headers)).toEqual({ status: 400 });
    expect(requests).toEqual([]);
  });

  it('answers 404 on a path that is no channel', async () => {
    const base = await serve([]);
    expect(await handshake(`${base}/elsewhere`, {})).toEqual({ status: 404 });
  });
});
