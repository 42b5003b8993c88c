/** Table tests of the pure parts of `casi conformance` on any spec: `--auth`, where credentials go, `curl` replays. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { type AnyRequest, toWire } from '../../conformance/any-spec/requests.js';
import { credentialParts, parseAuth } from '../../conformance/auth-option.js';
import { curlCommand } from '../../conformance/curl.js';
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
