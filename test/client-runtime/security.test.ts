/** Security schemes: where each carries the credential, and a call sends one only where its operation names one. */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import { placeCredentials, type SecuritySchemes } from '../../templates/client/security.js';
import { readBody, sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { paths } from './helpers/paths.js';

const SCHEMES: SecuritySchemes = {
  bearer: { type: 'bearer' },
  basic: { type: 'basic' },
  header: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  query: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'session id' },
};

describe('placeCredentials', () => {
  it.each<[string, { security: string[]; credentials: object; want: object }]>([
    [
      'a bearer token',
      {
        security: ['bearer'],
        credentials: { apiKey: 'k1' },
        want: { headers: { Authorization: 'Bearer k1' }, query: {} },
      },
    ],
    [
      'basic, as UTF-8 base64',
      {
        security: ['basic'],
        credentials: { username: 'zoë', password: 'p:w' },
        want: { headers: { Authorization: 'Basic em/DqzpwOnc=' }, query: {} },
      },
    ],
    [
      'an API key header',
      { security: ['header'], credentials: { apiKey: 'k2' }, want: { headers: { 'X-Api-Key': 'k2' }, query: {} } },
    ],
    [
      'an API key in the query',
      { security: ['query'], credentials: { apiKey: 'k3' }, want: { headers: {}, query: { api_key: 'k3' } } },
    ],
    [
      'an API key cookie, encoded',
      {
        security: ['cookie'],
        credentials: { apiKey: 'a b;c' },
        want: { headers: { Cookie: 'session id=a%20b%3Bc' }, query: {} },
      },
    ],
    [
      'the first scheme the caller has a credential for',
      {
        security: ['basic', 'unknown', 'query'],
        credentials: { apiKey: 'k4' },
        want: { headers: {}, query: { api_key: 'k4' } },
      },
    ],
    ['nothing without a scheme', { security: [], credentials: { apiKey: 'k5' }, want: { headers: {}, query: {} } }],
    ['nothing without a credential', { security: ['bearer'], credentials: {}, want: { headers: {}, query: {} } }],
  ])('%s', (_name, { security, credentials, want }) => {
    expect(placeCredentials(security, SCHEMES, credentials)).toEqual(want);
  });
});

describe('createCore with the spec’s security schemes, over loopback', () => {
  let server: TestServer;
  const seen: { url: string; headers: IncomingMessage['headers'] }[] = [];
  beforeAll(async () => {
    server = await startHttpServer(async (req, res) => {
      await readBody(req);
      seen.push({ url: req.url ?? '', headers: req.headers });
      sendJson(res, 200, { id: 'it_1', name: 'one' });
    });
  });
  afterAll(() => server.close());
  const call = (security: string[]) =>
    createCore<paths>({ baseUrl: server.url, apiKey: 'sk_1', securitySchemes: SCHEMES }).request(
      'get',
      '/items/{item_id}',
      { params: { path: { item_id: 'it_1' } }, security },
    );

  it('sends the API key in the query member its operation names, and no Authorization header', async () => {
    await call(['query']);
    const last = seen.at(-1);
    expect(last?.url).toBe('/items/it_1?api_key=sk_1');
    expect(last?.headers.authorization).toBeUndefined();
  });

  it('sends a bearer token or a header as named, and nothing for an operation without security', async () => {
    await call(['bearer']);
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer sk_1');
    await call(['header']);
    expect(seen.at(-1)?.headers['x-api-key']).toBe('sk_1');
    await call([]);
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    expect(seen.at(-1)?.headers['x-api-key']).toBeUndefined();
  });
});
