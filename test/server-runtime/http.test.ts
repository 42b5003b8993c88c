/** HTTP routes over real sockets: admission, validation, body errors, 404/405, 500 and successful calls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, MAX_BODY_DEPTH } from '../../templates/server/index.js';
import { expectError, goodHeaders, startServer, type TestRequest, type TestServer } from './fixture.js';

let server: TestServer;
const seen: TestRequest[] = [];

beforeAll(async () => {
  server = await startServer({
    handlers: {
      createThing: (req) => {
        seen.push(req);
        return { status: 201, body: { id: 'th_1', name: req.body.name }, headers: { location: '/things/th_1' } };
      },
      getThing: (req) => {
        seen.push(req);
        if (req.params.thing_id === 'th_missing') {
          throw new HttpError(404, 'not_found', 'No thing th_missing.', { headers: { 'x-hint': 'create it' } });
        }
        if (req.params.thing_id === 'th_broken') throw new Error('secret database password in message');
        return { status: 200, body: { id: req.params.thing_id, name: 'thing' } };
      },
    },
  });
});
afterAll(() => server.close());

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...goodHeaders, 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('valid requests', () => {
  it('reach the handler with the body, coerced query and auth, and send its status, body and headers', async () => {
    seen.length = 0;
    const response = await post('/things?dry_run=true', JSON.stringify({ name: 'lamp', size: 3 }));
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/things/th_1');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ id: 'th_1', name: 'lamp' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toEqual({ name: 'lamp', size: 3 });
    expect(seen[0]?.query).toEqual({ dry_run: true });
    expect(seen[0]?.auth).toEqual({ key: 'good', via: 'header' });
  });

  it('coerce integer, number and boolean query values and pass decoded path parameters', async () => {
    seen.length = 0;
    const response = await fetch(`${server.url}/things/th_abc?limit=5&verbose=false&ratio=-0.5`, {
      headers: { ...goodHeaders, 'x-trace': 'beef' },
    });
    expect(response.status).toBe(200);
    expect(seen[0]?.query).toEqual({ limit: 5, verbose: false, ratio: -0.5 });
    expect(seen[0]?.params).toEqual({ thing_id: 'th_abc' });
    expect(seen[0]?.headers['x-trace']).toBe('beef');
  });

  it('answer 204 with no body', async () => {
    const response = await fetch(`${server.url}/things/th_1`, { method: 'DELETE', headers: goodHeaders });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });
});

describe('authentication and Service-Version come first', () => {
  it('answers what authenticate throws before looking at Service-Version; a 401 names its scheme', async () => {
    const answer = await fetch(`${server.url}/things/th_1`);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(answer, 401, 'unauthorized');
    const other = await fetch(`${server.url}/things/th_1`, { headers: goodHeaders });
    expect(other.headers.get('www-authenticate')).toBeNull();
  });

  it('refuses a missing Service-Version of an authenticated request', async () => {
    const { 'service-version': _, ...withoutVersion } = goodHeaders;
    const response = await fetch(`${server.url}/things/th_1`, { headers: withoutVersion });
    const body = await expectError(response, 400, 'missing_service_version');
    expect(body.message).toContain('2025-06-19');
  });

  it('refuses another Service-Version', async () => {
    const response = await fetch(`${server.url}/things/th_1`, {
      headers: { ...goodHeaders, 'service-version': '2024-01-01' },
    });
    await expectError(response, 400, 'unsupported_service_version');
  });

  it('answers what authenticate throws, before reading the body', async () => {
    const headers = { 'service-version': '2025-06-19', 'content-type': 'application/json' };
    const unauthorized = await fetch(`${server.url}/things`, { method: 'POST', headers, body: '{not json' });
    await expectError(unauthorized, 401, 'unauthorized');
    const forbidden = await post('/things', '{"name":"x"}', { authorization: 'Bearer readonly' });
    await expectError(forbidden, 403, 'forbidden');
  });
});

describe('invalid requests', () => {
  it('list every problem of every part with pointers, and say the first in the message', async () => {
    const response = await post('/things?dry_run=maybe&extra=1', JSON.stringify({ name: '', size: -1, colour: 'red' }));
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.transient).toBe(false);
    expect(body.data).toEqual(
      expect.arrayContaining([
        { in: 'query', pointer: '/dry_run', message: 'must be boolean' },
        { in: 'query', pointer: '/extra', message: 'must NOT have additional properties' },
        { in: 'body', pointer: '/name', message: 'must NOT have fewer than 1 characters' },
        { in: 'body', pointer: '/size', message: 'must be >= 0' },
        { in: 'body', pointer: '/colour', message: 'must NOT have additional properties' },
      ]),
    );
    expect(body.data).toHaveLength(5);
    expect(body.message).toMatch(/^Invalid query parameter (dry_run|extra): must/);
  });

  it('report query and header problems of a GET', async () => {
    const response = await fetch(`${server.url}/things/th_1?limit=abc`, {
      headers: { ...goodHeaders, 'x-trace': 'XYZ' },
    });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.data).toEqual([
      { in: 'query', pointer: '/limit', message: 'must be integer' },
      { in: 'header', pointer: '/x-trace', message: 'must match pattern "^[a-f0-9]+$"' },
    ]);
    expect(body.message).toBe('Invalid query parameter limit: must be integer.');
  });

  it('answer 404 not_found to a path parameter that breaks its schema, before the other parts', async () => {
    const response = await fetch(`${server.url}/things/nope?limit=abc`, {
      headers: { ...goodHeaders, 'x-trace': 'XYZ' },
    });
    const body = await expectError(response, 404, 'not_found');
    expect(body.data).toEqual([{ in: 'path', pointer: '/thing_id', message: 'must match pattern "^th_[a-z0-9]+$"' }]);
    expect(body.message).toBe(
      'Invalid path parameter thing_id: must match pattern "^th_[a-z0-9]+$". No resource has this path.',
    );
  });

  it('read an empty body sent as application/json as no body: required → invalid_request, optional → accepted', async () => {
    const required = await expectError(await post('/things', ''), 400, 'invalid_request');
    expect(required.data).toEqual([{ in: 'body', pointer: '', message: 'a JSON body is required' }]);
    const del = await fetch(`${server.url}/things/th_1`, {
      method: 'DELETE',
      headers: { ...goodHeaders, 'content-type': 'application/json' },
    });
    expect(del.status).toBe(204);
    const wrongMethod = await fetch(`${server.url}/things`, {
      method: 'DELETE',
      headers: { ...goodHeaders, 'content-type': 'application/json' },
    });
    await expectError(wrongMethod, 405, 'method_not_allowed');
  });

  it('require the body when the operation does', async () => {
    const response = await fetch(`${server.url}/things`, { method: 'POST', headers: goodHeaders });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.data).toEqual([{ in: 'body', pointer: '', message: 'a JSON body is required' }]);
  });

  it('refuse a body nested deeper than MAX_BODY_DEPTH with a pointer, before anything walks it', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const body = await expectError(await post('/things', `{"name":"lamp","size":${deep}}`), 400, 'invalid_request');
    expect(body.data).toEqual([
      {
        in: 'body',
        pointer: `/size${'/a'.repeat(MAX_BODY_DEPTH - 1)}`,
        message: `must not nest deeper than ${MAX_BODY_DEPTH} levels`,
      },
    ]);
    const shallow = `${'{"a":'.repeat(MAX_BODY_DEPTH - 2)}1${'}'.repeat(MAX_BODY_DEPTH - 2)}`;
    const accepted = await expectError(
      await post('/things', `{"name":"lamp","size":${shallow}}`),
      400,
      'invalid_request',
    );
    expect(JSON.stringify(accepted.data)).not.toContain('nest deeper');
  });

  it('answer malformed_json for a body that is not JSON, saying why', async () => {
    const body = await expectError(await post('/things', '{"name": "lamp",'), 400, 'malformed_json');
    expect(body.message).toMatch(/^The body is not valid JSON: .+\.$/);
  });

  it('answer invalid_request naming a member that could change a prototype, at any depth, escaped or not', async () => {
    for (const [text, pointer] of [
      ['{"__proto__": {"x": 1}}', '/__proto__'],
      ['{"name": "lamp", "size": {"a": [1, {"\\u005f_proto__": 2}]}}', '/size/a/1/__proto__'],
      ['{"size": {"constructor": {"prototype": {"x": 1}}}}', '/size/constructor/prototype'],
      [`${'['.repeat(100_000)}{"__proto__": 1}${']'.repeat(100_000)}`, `${'/0'.repeat(100_000)}/__proto__`],
    ]) {
      const body = await expectError(await post('/things', text as string), 400, 'invalid_request');
      expect(body.data).toEqual([
        { in: 'body', pointer, message: 'must not be named __proto__, nor be constructor.prototype' },
      ]);
    }
    // Names that only look alike are data (refused here only as members the schema does not know).
    const alike = await expectError(
      await post('/things', '{"name": "lamp", "constructor": "x", "proto": 1}'),
      400,
      'invalid_request',
    );
    expect(JSON.stringify(alike.data)).not.toContain('prototype');
  });

  it('refuse a body with another or no content type', async () => {
    const text = await post('/things', '{"name":"lamp"}', { 'content-type': 'text/plain' });
    const body = await expectError(text, 400, 'invalid_request');
    expect(body.data).toEqual([{ in: 'header', pointer: '/content-type', message: 'must be application/json' }]);
    const none = await fetch(`${server.url}/things`, {
      method: 'POST',
      headers: goodHeaders,
      body: new Blob(['{"name":"lamp"}']),
    });
    await expectError(none, 400, 'invalid_request');
  });

  it('answer 413 payload_too_large over 1 MiB', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const body = await expectError(await post('/things', big), 413, 'payload_too_large');
    expect(body.message).toBe('The body exceeds 1048576 bytes.');
  });
});

describe('routing errors', () => {
  it('answer 404 route_not_found for an unknown path', async () => {
    await expectError(await fetch(`${server.url}/nothing/here`, { headers: goodHeaders }), 404, 'route_not_found');
  });

  it('answer 405 method_not_allowed with Allow for a known path', async () => {
    const put = await fetch(`${server.url}/things/th_1`, { method: 'PUT', headers: goodHeaders });
    expect(put.headers.get('allow')).toBe('DELETE, GET, HEAD');
    await expectError(put, 405, 'method_not_allowed');
    const get = await fetch(`${server.url}/things?x=1`, { headers: goodHeaders });
    expect(get.headers.get('allow')).toBe('POST');
    await expectError(get, 405, 'method_not_allowed');
    const session = await fetch(`${server.url}/things/th_1/session`, { method: 'POST', headers: goodHeaders });
    expect(session.headers.get('allow')).toBe('GET, HEAD');
    await expectError(session, 405, 'method_not_allowed');
  });

  it('refuse a plain GET on a WebSocket route', async () => {
    const response = await fetch(`${server.url}/things/th_1/session`, { headers: goodHeaders });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.data).toEqual([{ in: 'header', pointer: '/upgrade', message: expect.stringContaining('websocket') }]);
  });
});

describe('handler errors', () => {
  it('send an HttpError as thrown, with its headers', async () => {
    const response = await fetch(`${server.url}/things/th_missing`, { headers: goodHeaders });
    expect(response.headers.get('x-hint')).toBe('create it');
    const body = await expectError(response, 404, 'not_found');
    expect(body).toEqual({ code: 'not_found', transient: false, message: 'No thing th_missing.' });
  });

  it('hide any other error behind 500 internal_error and log it', async () => {
    const response = await fetch(`${server.url}/things/th_broken`, { headers: goodHeaders });
    const body = await expectError(response, 500, 'internal_error');
    expect(body).toEqual({ code: 'internal_error', transient: true, message: 'Internal error; retry later.' });
    expect(server.logs.join('\n')).toContain('secret database password in message');
  });
});
