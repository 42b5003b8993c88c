/**
 * Request bodies that arrive slowly, over raw sockets on loopback: a body that stops or trickles past its deadline
 * is 408 `request_timeout` in the `Error` shape and its connection closes; unfinished bodies together hold at most
 * the configured bytes, past which a new upload is 503 `service_unavailable` with `Retry-After`.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, portOf } from '../../conformance/raw-http.js';
import { startReference, type Target } from '../../conformance/target.js';

const LIMITS = { totalMs: 1500, idleMs: 300, maxPendingBytes: 64 * 1024 };

let target: Target;
let port: number;

beforeAll(async () => {
  target = await startReference({ app: { bodyLimits: LIMITS } });
  port = portOf(target.baseUrl);
});

afterAll(async () => {
  await target?.close();
});

/** The head of a JSON POST whose body is declared `length` bytes long. */
function head(length: number): string {
  return [
    'POST /conversations HTTP/1.1',
    'Host: x',
    `Authorization: Bearer ${target.keys.write}`,
    'Service-Version: 2025-06-19',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');
}

describe('slow request bodies', () => {
  it('a body that stops arriving is 408 request_timeout after the idle gap, and the connection closes', async () => {
    const answer = await exchange(port, `${head(1000)}{"agent_id":`, { timeoutMs: 5000 });
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ code: 'request_timeout', transient: true });
    expect(answer.headers.connection).toBe('close');
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(LIMITS.idleMs - 50);
    expect(answer.elapsedMs).toBeLessThan(LIMITS.totalMs);
  });

  it('a body that trickles in without an idle gap is 408 at the total deadline', async () => {
    const trickle = Array.from({ length: 60 }, () => ' ');
    const answer = await exchange(port, [head(1000), ...trickle], { gapMs: 100, timeoutMs: 6000 });
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ code: 'request_timeout', transient: true });
    expect((answer.json as { message: string }).message).toContain(`longer than ${LIMITS.totalMs} ms`);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(LIMITS.totalMs - 50);
    expect(answer.elapsedMs).toBeLessThan(LIMITS.totalMs + 1500);
  });

  it('a body nobody reads (refused before parsing) times out quietly: no uncaught error, the server goes on', async () => {
    const refused = [
      'POST /conversations HTTP/1.1',
      'Host: x',
      `Authorization: Bearer ${target.keys.write}`,
      'Service-Version: 2025-06-19',
      'Content-Type: application/xml',
      'Content-Length: 100',
      '',
      'abc',
    ].join('\r\n');
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (data) => {
      text += data.toString();
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(refused);
    // Past the idle gap, with the connection still open and the body still short.
    await new Promise((resolve) => setTimeout(resolve, LIMITS.idleMs * 3));
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const after = await exchange(port, `${head(2)}{}`, { timeoutMs: 3000 });
    expect(after.status).toBe(400);
    expect(after.json).toMatchObject({ code: 'invalid_request' });
  });

  it('past the bytes unfinished bodies may hold, a new upload is 503 with Retry-After; then room comes back', async () => {
    const part = 24 * 1024;
    const holders: net.Socket[] = [];
    // Three uploads each hold 24 KiB of a 100 KiB body: 72 KiB, over the 64 KiB allowed; the third is refused.
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(port, '127.0.0.1');
      holders.push(socket);
      let text = '';
      socket.on('data', (data) => {
        text += data.toString();
        answers[i] = text;
      });
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(head(100 * 1024) + ' '.repeat(part));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    const deadline = Date.now() + 1000;
    while (answers[2] === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers[0]).toBeUndefined();
    expect(answers[1]).toBeUndefined();
    expect(answers[2]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[2]).toMatch(/retry-after: 1/i);
    expect(answers[2]).toContain('"code":"service_unavailable"');
    // The held uploads time out and release their bytes: a new upload of the same size is read again.
    for (const socket of holders) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await exchange(port, `${head(part)}${' '.repeat(part)}`, { timeoutMs: 3000 });
    expect(after.status).toBe(400);
    expect(after.json).toMatchObject({ code: 'malformed_json' });
  });
});
