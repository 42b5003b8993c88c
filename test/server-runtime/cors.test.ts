import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, goodHeaders, startServer, type TestServer } from './fixture.js';

const origin = 'http://127.0.0.1:5173';

describe('CORS', () => {
  let server: TestServer;
  let closed: TestServer;
  beforeAll(async () => {
    server = await startServer({ corsOrigin: '*' });
    closed = await startServer();
  });
  afterAll(async () => {
    await server.close();
    await closed.close();
  });

  it('answers a preflight for a known path with the allowed methods and headers', async () => {
    const response = await fetch(`${server.url}/things`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('service-version');
  });

  it('adds the origin to answers, error answers and SSE streams', async () => {
    const ok = await fetch(`${server.url}/things/th_1`, { headers: { ...goodHeaders, origin } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    expect(ok.headers.get('access-control-expose-headers')).toContain('retry-after');
    const missing = await fetch(`${server.url}/nowhere`, { headers: { ...goodHeaders, origin } });
    expect(missing.headers.get('access-control-allow-origin')).toBe(origin);
    await expectError(missing, 404, 'route_not_found');
    const events = await fetch(`${server.url}/things/th_1/events`, { headers: { ...goodHeaders, origin } });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    expect(events.headers.get('access-control-allow-origin')).toBe(origin);
    await events.text();
  });

  it('does nothing without the option: OPTIONS is 405 and no CORS header is sent', async () => {
    const response = await fetch(`${closed.url}/things`, { method: 'OPTIONS', headers: { origin } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await expectError(response, 405, 'method_not_allowed');
  });

  it('refuses another origin when one origin is configured', async () => {
    const only = await startServer({ corsOrigin: 'http://example.test' });
    try {
      const response = await fetch(`${only.url}/things/th_1`, { headers: { ...goodHeaders, origin } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await only.close();
    }
  });
});
