/**
 * Answers made before a route runs, over raw sockets on loopback: Fastify's and Node's HTTP parser's refusals come
 * in the `Error` shape; HEAD answers wherever GET does; console routes answer 405 for a wrong method; `__proto__`
 * is an unknown query parameter; a JSON body in another charset is refused; an aborted upload is logged at info.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, portOf, type RawAnswer } from '../../conformance/raw-http.js';
import { startReference, type Target } from '../../conformance/target.js';
import { createChat } from './helpers/loopback.js';

let target: Target;
let port: number;
const logLines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  target = await startReference({
    app: {
      logger: {
        level: 'info',
        stream: { write: (line: string) => void logLines.push(JSON.parse(line) as { level: number; msg: string }) },
      },
    },
  });
  port = portOf(target.baseUrl);
});

afterAll(async () => {
  await target?.close();
});

const auth = () => `Authorization: Bearer ${target.keys.write}\r\nService-Version: 2025-06-19\r\n`;

/** Asserts the answer is `status` with an `Error` body of `code` (exactly `code`, `transient`, `message`, `data`?). */
function expectError(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = answer.json as Record<string, unknown>;
  expect(body).toMatchObject({ code, transient: expect.any(Boolean), message: expect.any(String) });
  expect(Object.keys(body).filter((k) => !['code', 'transient', 'message', 'data'].includes(k))).toEqual([]);
}

describe('framework-level refusals use the Error shape', () => {
  it('an id with invalid percent-encoding is 400 invalid_request naming the path', async () => {
    const answer = await exchange(
      port,
      `GET /conversational_agents/ca_%FF%FE HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expectError(answer, 400, 'invalid_request');
    expect((answer.json as { data: unknown }).data).toEqual([
      { in: 'path', pointer: '', message: 'must be valid percent-encoded UTF-8' },
    ]);
  });

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /conversations HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['Content-Length: -1', 'POST /conversations HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'],
  ])("%s is 400 invalid_request from Node's parser", async (_name, request) => {
    const answer = await exchange(port, request);
    expectError(answer, 400, 'invalid_request');
    expect((answer.json as { message: string }).message).toMatch(/^The request is not valid HTTP\/1\.1: .+\.$/);
  });

  it('headers over 16 KiB are 431 request_headers_too_large', async () => {
    const answer = await exchange(
      port,
      `GET /conversations HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\nConnection: close\r\n\r\n`,
    );
    expectError(answer, 431, 'request_headers_too_large');
  });

  it('HTTP/1.1 without Host is 400 invalid_request naming the header', async () => {
    const answer = await exchange(port, `GET /conversations HTTP/1.1\r\n${auth()}Connection: close\r\n\r\n`);
    expectError(answer, 400, 'invalid_request');
    expect((answer.json as { data: { pointer: string }[] }).data[0]?.pointer).toBe('/host');
  });
});

describe('HEAD and 405', () => {
  it('HEAD answers a REST GET route with its status and headers, without a body', async () => {
    const get = await exchange(port, `GET /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    const head = await exchange(port, `HEAD /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.body).toBe('');
  });

  it('HEAD on an event stream answers its headers and ends: the connection serves the next request', async () => {
    const id = await createChat(target);
    const head = `HEAD /conversations/${id}/events HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`;
    const next = `GET /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`;
    const answer = await exchange(port, head + next, { timeoutMs: 3000 });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    // No body of its own: what follows the headers is the answer to the next request.
    expect(answer.body).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.body).toContain('{"data":[');
  });

  it('HEAD on the stream of an unknown conversation is 404 without a body', async () => {
    const missing = await exchange(
      port,
      `HEAD /conversations/conv_nothing/events HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('');
  });

  it('a wrong method lists HEAD in Allow wherever GET is allowed', async () => {
    const answer = await exchange(
      port,
      `PATCH /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe('GET, HEAD, POST');
  });

  it('console routes answer 405 method_not_allowed, not 404, for a wrong method', async () => {
    const answer = await exchange(port, 'DELETE /console HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe('GET, HEAD');
    expectError(
      await exchange(port, 'GET /console/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      404,
      'route_not_found',
    );
  });
});

describe('query parameters and bodies', () => {
  it.each([
    ['__proto__=1', '/__proto__'],
    ['%5F%5Fproto%5F%5F=1', '/__proto__'],
  ])('?%s is refused like any unknown parameter', async (query, pointer) => {
    const answer = await exchange(
      port,
      `GET /conversations?${query} HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expectError(answer, 400, 'invalid_request');
    expect((answer.json as { data: unknown[] }).data).toContainEqual({
      in: 'query',
      pointer,
      message: 'must NOT have additional properties',
    });
  });

  it('?__proto__=1 on the session handshake is refused too', async () => {
    const id = await createChat(target);
    const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n';
    const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
    const answer = await exchange(
      port,
      `GET /conversations/${id}/session?__proto__=1 HTTP/1.1\r\nHost: x\r\n${auth()}${upgrade}${key}\r\n`,
    );
    expectError(answer, 400, 'invalid_request');
  });

  it('a JSON body declared in another charset is 400 naming Content-Type; utf-8 is accepted', async () => {
    const post = (charset: string) =>
      exchange(
        port,
        `POST /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json; charset=${charset}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    const refused = await post('utf-16');
    expectError(refused, 400, 'invalid_request');
    expect((refused.json as { data: unknown[] }).data).toEqual([
      { in: 'header', pointer: '/content-type', message: 'charset must be utf-8' },
    ]);
    // Read as UTF-8, `{}` misses the required members: the charset passed.
    const accepted = await post('UTF-8');
    expectError(accepted, 400, 'invalid_request');
    expect(JSON.stringify(accepted.json)).toContain('/agent_id');
  });

  it('an aborted upload is logged at info level, not as an internal error', async () => {
    const before = logLines.length;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /conversations HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"agent`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const deadline = Date.now() + 3000;
    const aborted = () => logLines.slice(before).some((l) => l.msg.includes('closed the connection before'));
    while (!aborted() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted()).toBe(true);
    expect(logLines.slice(before).filter((l) => l.level >= 50)).toEqual([]);
  });
});
