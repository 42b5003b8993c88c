/** The channels of AsyncAPI documents written without this service's envelopes: direction, discriminator, kind. */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';

/** The IR of one AsyncAPI document given as an object, with no OpenAPI document. */
async function irOf(asyncapi: object) {
  const { openapi } = await loadSpecs(undefined, undefined);
  return buildIr({ openapi, asyncapi: parseSourceDocument('/virtual/asyncapi.json', JSON.stringify(asyncapi)) });
}

const tagged = (tag: string, extra: object = {}) => ({
  payload: { type: 'object', properties: { kind: { type: 'string', const: tag }, ...extra } },
});

/** 3.0: the application sends `ping`/`pong` (the client receives them) and receives `say` (the client sends it). */
const chat30 = {
  asyncapi: '3.0.0',
  info: { title: 'Chat', version: '1' },
  servers: { live: { host: 'chat.example.com', pathname: '/ws', protocol: 'wss' } },
  channels: {
    room: {
      address: '/rooms/{roomId}',
      parameters: { roomId: { enum: ['a', 'b'] } },
      bindings: {
        ws: {
          query: { type: 'object', properties: { since: { type: 'integer' } } },
          headers: { type: 'object', properties: { 'X-Client': { type: 'string' } } },
        },
      },
      messages: {
        ping: { $ref: '#/components/messages/ping' },
        pong: { $ref: '#/components/messages/pong' },
        say: { $ref: '#/components/messages/say' },
      },
    },
  },
  operations: {
    hear: {
      action: 'send',
      channel: { $ref: '#/channels/room' },
      messages: [{ $ref: '#/channels/room/messages/ping' }, { $ref: '#/channels/room/messages/pong' }],
    },
    speak: {
      action: 'receive',
      channel: { $ref: '#/channels/room' },
      messages: [{ $ref: '#/channels/room/messages/say' }],
    },
  },
  components: {
    messages: {
      ping: tagged('ping'),
      pong: { payload: { allOf: [{ $ref: '#/components/schemas/Base' }, tagged('pong').payload] } },
      say: { payload: { type: 'object', properties: { text: { type: 'string' } } } },
    },
    schemas: { Base: { type: 'object', properties: { at: { type: 'number' } } } },
  },
};

/** 2.6: `subscribe` is what clients receive, `publish` what they send; no shared fixed member among the received. */
const feed26 = {
  asyncapi: '2.6.0',
  info: { title: 'Feed', version: '1' },
  servers: { local: { url: 'ws://localhost:9000', protocol: 'ws' } },
  channels: {
    '/feed/{topic}': {
      parameters: { topic: { schema: { type: 'string' } } },
      subscribe: {
        message: {
          oneOf: [
            { name: 'quote', payload: { type: 'object', properties: { price: { type: 'number' } } } },
            { name: 'trade', payload: { type: 'object', properties: { size: { type: 'number' } } } },
          ],
        },
      },
      publish: { message: { $ref: '#/components/messages/subscribe' } },
    },
  },
  components: { messages: { subscribe: tagged('subscribe', { topic: { type: 'string' } }) } },
};

describe('channels of AsyncAPI 3.0', () => {
  it('takes `send` operations as what the client receives and `receive` ones as what it sends', async () => {
    const [room] = (await irOf(chat30)).channels;
    expect(room?.receive.messages).toEqual(['ping', 'pong']);
    expect(room?.send.messages).toEqual(['say']);
  });

  it('narrows by a member every message fixes (through allOf), and by name where there is none', async () => {
    const [room] = (await irOf(chat30)).channels;
    expect(room?.receive).toMatchObject({ discriminator: 'kind', keys: { ping: ['ping'], pong: ['pong'] } });
    expect(room?.send.discriminator).toBeUndefined();
    expect(room?.send.keys).toEqual({ say: ['say'] });
  });

  it('reads the address, its parameters, the wss server and the ws query binding', async () => {
    const ir = await irOf(chat30);
    const [room] = ir.channels;
    expect(room).toMatchObject({ kind: 'websocket', address: '/rooms/{roomId}', url: 'wss://chat.example.com/ws' });
    expect(room?.parameters.map((p) => [p.name, p.schema.enum])).toEqual([['roomId', ['a', 'b']]]);
    const schema = (name: string | undefined) => ir.schemas.find((s) => s.name === name)?.schema;
    expect([room?.query, room?.headers]).toEqual(['RoomQuery', 'RoomHeaders']);
    expect(schema(room?.query)).toEqual(chat30.channels.room.bindings.ws.query);
    expect(schema(room?.headers)).toEqual(chat30.channels.room.bindings.ws.headers);
  });

  it('says where a channel has no address (unknown, in 3.x) and uses its name in its place', async () => {
    for (const address of [null, undefined]) {
      const doc = structuredClone(chat30) as { channels: { room: { address?: string | null } } };
      if (address === undefined) delete doc.channels.room.address;
      else doc.channels.room.address = address;
      const ir = await irOf(doc);
      expect(ir.channels[0]?.address).toBe('room');
      expect(ir.warnings).toContainEqual({
        document: 'asyncapi',
        pointer: '/channels/room',
        message:
          "the channel room has no address (AsyncAPI 3 reads it as unknown until run time): its client and routes use the channel's name, room, in its place",
      });
    }
    expect((await irOf(chat30)).warnings.filter((w) => w.message.includes('has no address'))).toEqual([]);
  });

  it('takes a two-way channel on an https server as a WebSocket, a one-way one as a stream', async () => {
    const https = { live: { host: 'chat.example.com', protocol: 'https' } };
    const { bindings: _, ...unbound } = chat30.channels.room;
    const twoWay = await irOf({ ...chat30, servers: https, channels: { room: unbound } });
    expect(twoWay.channels[0]?.kind).toBe('websocket');
    const { speak: __, ...hearOnly } = chat30.operations;
    const oneWay = await irOf({ ...chat30, servers: https, channels: { room: unbound }, operations: hearOnly });
    expect(oneWay.channels[0]?.kind).toBe('stream');
  });

  it('gives one notice per document naming a protocol that gets no client', async () => {
    const mqtt = { broker: { host: 'broker.example.com', protocol: 'mqtt' } };
    const { bindings: _, ...unbound } = chat30.channels.room;
    const operations = { ...chat30.operations, listen: { action: 'send', channel: { $ref: '#/channels/hall' } } };
    const ir = await irOf({ ...chat30, servers: mqtt, channels: { room: unbound, hall: unbound }, operations });
    expect(ir.channels.map((c) => [c.name, c.kind])).toEqual([
      ['hall', 'unsupported'],
      ['room', 'unsupported'],
    ]);
    // An operation that lists no messages carries all of its channel's.
    expect(ir.channels[0]?.receive.messages).toEqual(['ping', 'pong', 'say']);
    expect(ir.warnings.filter((w) => w.message.includes('mqtt'))).toEqual([
      {
        document: 'asyncapi',
        pointer: '/channels/room',
        message: 'no client and no server are generated for mqtt: its channels get types and validators only',
      },
    ]);
  });
});

describe('channels of AsyncAPI 2.6', () => {
  it('takes `subscribe` as what the client receives and `publish` as what it sends', async () => {
    const [feed] = (await irOf(feed26)).channels;
    expect(feed?.receive.messages).toEqual(['quote', 'trade']);
    expect(feed?.send.messages).toEqual(['subscribe']);
  });

  it('keys messages by name when they share no fixed member, and by the member when they do', async () => {
    const [feed] = (await irOf(feed26)).channels;
    expect(feed?.receive.discriminator).toBeUndefined();
    expect(feed?.receive.keys).toEqual({ quote: ['quote'], trade: ['trade'] });
    expect(feed?.send).toMatchObject({ discriminator: 'kind', keys: { subscribe: ['subscribe'] } });
  });

  it('reads the channel key as the address and the server url as written', async () => {
    const [feed] = (await irOf(feed26)).channels;
    expect(feed).toMatchObject({ kind: 'websocket', address: '/feed/{topic}', url: 'ws://localhost:9000' });
    expect(feed?.parameters.map((p) => p.name)).toEqual(['topic']);
  });

  it('takes the $refs of a message oneOf, beside inline messages, to the messages they name', async () => {
    const listed = structuredClone(feed26);
    listed.channels['/feed/{topic}'].subscribe.message.oneOf = [
      { $ref: '#/components/messages/tick' },
      { name: 'notice', payload: { type: 'string' } },
    ] as never;
    listed.channels['/feed/{topic}'].publish.message = {
      oneOf: [{ $ref: '#/components/messages/subscribe' }, { $ref: '#/components/messages/tick' }],
    } as never;
    (listed.components.messages as Record<string, unknown>).tick = tagged('tick');
    const [feed] = (await irOf(listed)).channels;
    expect(feed?.receive.messages).toEqual(['notice', 'tick']);
    expect(feed?.send).toMatchObject({ messages: ['subscribe', 'tick'], discriminator: 'kind' });
  });

  it('lets a member whose values overlap still narrow, each value to every message that allows it', async () => {
    const overlapping = structuredClone(feed26);
    overlapping.channels['/feed/{topic}'].subscribe.message.oneOf = [
      { name: 'quote', ...tagged('tick') },
      { name: 'trade', payload: { type: 'object', properties: { kind: { type: 'string', enum: ['tick', 'fill'] } } } },
    ] as never;
    const [feed] = (await irOf(overlapping)).channels;
    expect(feed?.receive).toMatchObject({ discriminator: 'kind', keys: { fill: ['trade'], tick: ['quote', 'trade'] } });
  });
});

/** A document's parts the security tests set. */
interface Secured {
  servers: Record<'local' | 'live', Record<string, unknown>>;
  channels: Record<'/feed/{topic}', { subscribe: Record<string, unknown> }>;
  components: Record<string, unknown>;
}

describe('channel security', () => {
  const schemes = {
    key: { type: 'httpApiKey', in: 'header', name: 'X-Key' },
    login: { type: 'userPassword' },
    oauth: { type: 'oauth2', flows: {} },
    broker: { type: 'apiKey', in: 'user' },
  };

  it('2.6: reads the servers’ named requirements, leaving out schemes with no place on a request', async () => {
    const secured = structuredClone(feed26) as unknown as Secured;
    secured.servers.local.security = [{ key: [] }, { broker: [] }, { login: [] }];
    secured.components.securitySchemes = schemes;
    const [feed] = (await irOf(secured)).channels;
    expect(feed?.security).toEqual({ key: { type: 'apiKey', in: 'header', name: 'X-Key' }, login: { type: 'basic' } });
  });

  it('2.6: takes an operation’s security over its servers’', async () => {
    const secured = structuredClone(feed26) as unknown as Secured;
    secured.servers.local.security = [{ key: [] }];
    secured.channels['/feed/{topic}'].subscribe.security = [{ oauth: [] }];
    secured.components.securitySchemes = schemes;
    const [feed] = (await irOf(secured)).channels;
    expect(feed?.security).toEqual({ oauth: { type: 'bearer' } });
  });

  it('3.0: follows $refs to the schemes and names inline ones by position; none without security', async () => {
    const secured = structuredClone(chat30) as unknown as Secured;
    secured.servers.live.security = [{ $ref: '#/components/securitySchemes/key' }, { type: 'http', scheme: 'basic' }];
    secured.components = { ...secured.components, securitySchemes: schemes };
    const [room] = (await irOf(secured)).channels;
    expect(room?.security).toEqual({
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      scheme2: { type: 'basic' },
    });
    expect((await irOf(chat30)).channels[0]?.security).toEqual({});
  });
});
