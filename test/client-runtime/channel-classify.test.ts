/** How a channel message is told apart (by its discriminating member, else by name), and a channel's URL. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { channelUrl } from '../../templates/client/channel-url.js';
import { classify, type MessageSet } from '../../templates/shared/channel.js';
import { type CompiledValidate, fromCompiled, type Validator } from '../../templates/shared/validation.js';

const ajv = new Ajv({ allErrors: true });
const validator = (name: string, schema: object) => fromCompiled(ajv.compile(schema) as CompiledValidate, name);
const exact = (v: Validator<unknown>, value: unknown) => v(value);

const quote = validator('quote', { type: 'object', required: ['price'], properties: { price: { type: 'number' } } });
const trade = validator('trade', { type: 'object', required: ['size'], properties: { size: { type: 'number' } } });
const byName: MessageSet = { validators: { quote, trade }, keys: { quote: ['quote'], trade: ['trade'] } };

const tagged = (tags: string[]) =>
  validator(tags.join('|'), { type: 'object', required: ['kind'], properties: { kind: { enum: tags } } });
const byKind: MessageSet = {
  discriminator: 'kind',
  validators: { tick: tagged(['tick']), fill: tagged(['fill', 'tick']) },
  keys: { fill: ['fill'], tick: ['tick', 'fill'] },
};

describe('classify', () => {
  it('tells messages apart by the first one they are valid as when no member discriminates', () => {
    expect(classify('feed', byName, { size: 2 }, exact)).toEqual({ key: 'trade', name: 'trade' });
    expect(classify('feed', byName, { price: 1 }, exact)).toEqual({ key: 'quote', name: 'quote' });
  });

  it('keys by the discriminating value, trying only the messages that allow it', () => {
    expect(classify('feed', byKind, { kind: 'fill' }, exact)).toEqual({ key: 'fill', name: 'fill' });
    expect(classify('feed', byKind, { kind: 'tick' }, exact)).toEqual({ key: 'tick', name: 'tick' });
  });

  it('refuses a value of the member that no message has, naming the member and the values', () => {
    expect(() => classify('feed', byKind, { kind: 'gone' }, exact)).toThrow(
      'a message of the channel feed is invalid: /kind: must be one of fill, tick',
    );
  });

  it('refuses a message that fits none, with the issues of the last one tried', () => {
    expect(() => classify('feed', byName, { size: 'big' }, exact)).toThrow(
      /channel feed is invalid: \/size: must be number/,
    );
  });

  it('refuses any message in a direction that carries none', () => {
    expect(() => classify('feed', { validators: {}, keys: {} }, {}, exact)).toThrow(
      /no message goes this way on this channel/,
    );
  });
});

describe('channelUrl', () => {
  const channel = { name: 'feed', address: '/feed/{topic}', url: 'wss://feed.example.com/v1/' };

  it('appends the address to the base, parameters encoded, and each defined query member', () => {
    const url = channelUrl(channel, { params: { topic: 'a b/c' }, query: { depth: 3, live: true, skip: undefined } });
    expect(url.href).toBe('wss://feed.example.com/v1/feed/a%20b%2Fc?depth=3&live=true');
  });

  it('prefers the given base and says which parameter is missing', () => {
    expect(channelUrl(channel, { baseUrl: 'http://127.0.0.1:1', params: { topic: 't' } }).href).toBe(
      'http://127.0.0.1:1/feed/t',
    );
    expect(() => channelUrl(channel, { params: {} })).toThrow('The channel feed needs the parameter topic.');
    expect(() => channelUrl({ ...channel, url: undefined }, { params: { topic: 't' } })).toThrow(/needs a baseUrl/);
  });
});
