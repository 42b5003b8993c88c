/**
 * Table tests of the pure parts of `casi conformance` on any spec: `--auth`, where credentials go, `curl` replays,
 * and the REST shape the crud sequences read.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  createdId,
  differentField,
  itemOperation,
  listHolds,
  listItems,
} from '../../conformance/any-spec/crud-shape.js';
import { type AnyRequest, toWire } from '../../conformance/any-spec/requests.js';
import { credentialParts, parseAuth } from '../../conformance/auth-option.js';
import { curlCommand } from '../../conformance/curl.js';
import type { WireResponse } from '../../conformance/wire.js';
import type { Ir, IrOperation, IrParameter } from '../../generator/ir/model.js';

/** An operation with only what these helpers read. */
function operation(security: string[], query: IrParameter[] = []): IrOperation {
  return {
    id: 'op',
    method: 'post',
    path: '/things/{id}',
    transport: 'http',
    security,
    parameters: { path: [], query, header: [], cookie: [] },
    requestBody: { required: true, contentType: 'application/json', schema: {} },
    responses: [],
    credentialParameters: [],
  } as unknown as IrOperation;
}

const IR = {
  securitySchemes: {
    bearer: { type: 'bearer' },
    key: { type: 'apiKey', in: 'query', name: 'api_key' },
    cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
  },
} as unknown as Ir;

describe('--auth', () => {
  it.each([
    ['bearer:abc', { kind: 'bearer', token: 'abc' }],
    ['basic:ann:pa:ss', { kind: 'basic', user: 'ann', password: 'pa:ss' }],
    ['header:X-Key=a=b', { kind: 'header', name: 'X-Key', value: 'a=b' }],
    ['query:token=t1', { kind: 'query', name: 'token', value: 't1' }],
    ['apikey:k1', { kind: 'apikey', value: 'k1' }],
  ])('parses %s', (text, parsed) => {
    expect(parseAuth(text)).toEqual(parsed);
  });

  it.each(['bearer:', 'basic:ann', 'header:X-Key', 'query:=v', 'token:x', 'abc'])(
    'refuses %s, naming the forms',
    (text) => {
      expect(() => parseAuth(text)).toThrow(/is not one of bearer:TOKEN, basic:USER:PASS/);
    },
  );

  it('goes only on operations the spec secures; apikey: where the scheme says', () => {
    expect(credentialParts(IR, operation([]), parseAuth('bearer:abc'))).toEqual({ headers: {}, query: {} });
    expect(credentialParts(IR, operation(['bearer']), parseAuth('bearer:abc')).headers).toEqual({
      Authorization: 'Bearer abc',
    });
    expect(credentialParts(IR, operation(['bearer']), parseAuth('basic:ann:pw')).headers).toEqual({
      Authorization: `Basic ${Buffer.from('ann:pw').toString('base64')}`,
    });
    expect(credentialParts(IR, operation(['bearer', 'key']), parseAuth('apikey:k1'))).toEqual({
      headers: {},
      query: { api_key: 'k1' },
    });
    expect(credentialParts(IR, operation(['cookieKey']), parseAuth('apikey:k1')).headers).toEqual({
      Cookie: 'session=k1',
    });
  });
});

describe('the wire form and its curl replay', () => {
  const tags: IrParameter = { name: 'tags', in: 'query', required: false, schema: {}, description: '' };
  const csv: IrParameter = { ...tags, name: 'csv', explode: false };
  const request: AnyRequest = {
    path: { id: 'a b/c' },
    query: { tags: ['x', 'y'], csv: [1, 2] },
    headers: {},
    cookies: {},
    body: { text: 'it\'s "quoted" and ünïcode $HOME `x`' },
  };

  it('puts parameters in their styles and the credential beside them', () => {
    const wire = toWire(operation(['key'], [tags, csv]), request, { headers: {}, query: { api_key: 'k' } });
    expect(wire.path).toBe('/things/a%20b%2Fc?tags=x&tags=y&csv=1%2C2');
    expect(wire.query).toEqual({ api_key: 'k' });
    expect(wire.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(wire.body).toBe(JSON.stringify(request.body));
  });

  it('quotes every argument so that a POSIX shell gives curl exactly the request', () => {
    const wire = toWire(operation(['key'], [tags, csv]), request, {
      headers: { 'X-Key': "o'k" },
      query: { api_key: 'k' },
    });
    const command = curlCommand('http://127.0.0.1:9/base', wire);
    expect(command.startsWith('curl -i -X POST ')).toBe(true);
    // The shell's own reading of the arguments, with printf in curl's place.
    const argv = execFileSync('sh', ['-c', command.replace(/^curl /, "printf '%s\\0' ")], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(argv).toEqual([
      '-i',
      '-X',
      'POST',
      'http://127.0.0.1:9/base/things/a%20b%2Fc?tags=x&tags=y&csv=1%2C2&api_key=k',
      '-H',
      "X-Key: o'k",
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      JSON.stringify(request.body),
    ]);
  });
});

describe('the REST shape of crud sequences', () => {
  const op = (method: string, path: string, params: string[] = []) =>
    ({
      id: `${method} ${path}`,
      method,
      path,
      transport: 'http',
      parameters: { path: params.map((name) => ({ name })), query: [], header: [], cookie: [] },
      responses: [],
    }) as unknown as IrOperation;
  const answer = (json: unknown, headers: Record<string, string> = {}) =>
    ({ status: 201, headers, json }) as unknown as WireResponse;

  it('finds the item operations one parameter below a collection, nested collections included', () => {
    const create = op('post', '/shops/{shop}/books', ['shop']);
    const ops = [
      create,
      op('get', '/shops/{shop}/books/{bookId}', ['shop', 'bookId']),
      op('get', '/shops/{shop}/books/{bookId}/pages', ['shop', 'bookId']),
      op('delete', '/shops/{shop}/books/{bookId}', ['shop', 'bookId']),
    ];
    expect(itemOperation(ops, create, 'get')).toEqual({ op: ops[1], param: 'bookId' });
    expect(itemOperation(ops, create, 'delete')?.op).toBe(ops[3]);
    expect(itemOperation(ops, create, 'put')).toBeUndefined();
  });

  it.each([
    ['the member named as the parameter', answer({ bookId: 'b1', id: 7 }), 'b1'],
    ['else `id`', answer({ id: 7 }), 7],
    ['else the end of Location', answer({}, { location: '/books/b%202' }), 'b 2'],
    ['nothing else', answer({ name: 'x' }), undefined],
  ])('names what was created by %s', (_, response, id) => {
    expect(createdId(response, 'bookId')).toEqual(id);
  });

  it.each([
    [[{ id: 1 }], [{ id: 1 }]],
    [{ items: [{ id: 1 }], total: 1 }, [{ id: 1 }]],
    [{ a: [], b: [] }, undefined],
    ['text', undefined],
  ])('reads the items of the list answer %j', (value, items) => {
    expect(listItems(value)).toEqual(items);
  });

  it('holds the created resource by its name, else by every field sent', () => {
    expect(listHolds([{ bookId: 'b1' }, { bookId: 'b2' }], 'b2', 'bookId', [])).toBe(true);
    expect(listHolds([{ id: 3 }], '3', 'bookId', [])).toBe(true);
    expect(listHolds([{ id: 4 }], '3', 'bookId', [['title', 'T']])).toBe(false);
    expect(listHolds([{ title: 'T', pages: 2 }], 'x', 'bookId', [['title', 'T']])).toBe(true);
    expect(listHolds([{ title: 'U' }], 'x', 'bookId', [['title', 'T']])).toBe(false);
  });

  it('compares the fields sent with the answer, a top-level member left out being no difference', () => {
    expect(differentField([['title', 'T']], { title: 'T', id: 1 })).toBeUndefined();
    expect(differentField([['title', 'T']], { id: 1 })).toBeUndefined();
    expect(differentField([['tags', ['a']]], { tags: ['b'] })).toBe('/tags sent ["a"], read ["b"]');
    // Defaults the server adds inside an object are no difference; a nested member lost is one.
    expect(differentField([['config', { a: 1 }]], { config: { a: 1, b: 2 } })).toBeUndefined();
    expect(differentField([['config', { a: 1, b: 2 }]], { config: { a: 1 } })).toBe(
      '/config sent {"a":1,"b":2}, read {"a":1}',
    );
    expect(differentField([['title', 'T']], [1])).toBe('the answer is not an object: [1]');
  });
});
