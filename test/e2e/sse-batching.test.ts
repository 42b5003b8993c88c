/**
 * How the SSE stream groups events into writes, observed on a raw socket over loopback: each HTTP chunk of the
 * chunked body is one server write. Writes follow the socket (backpressure), never a clock: a lone event goes out
 * at once, in a write of its own, and so does each of events logged one after another; the events ready together (a
 * history) go out in writes of `SSE_BATCH_LENGTH` characters, plus at most one event; a reader that stops reading
 * holds the writes back and loses nothing; no event is lost, repeated or reordered.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_BATCH_LENGTH } from '../../reference/http/events-stream.js';
import { startChat } from '../reference/helpers/loopback.js';
import { type ScenarioAgents, startConversation, startScenario, WAIT_MS } from './fixtures.js';
import type { Harness } from './harness.js';

let h: Harness;
let agents: ScenarioAgents;
beforeAll(async () => ({ h, agents } = await startScenario()));
afterAll(() => h.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One event of a chunk: its `id:` and its `data:` parsed. */
interface Frame {
  readonly id: string;
  readonly data: { readonly payload: { readonly type: string; readonly data?: Record<string, string> } };
}

/** The events of one chunk; fails unless the chunk is whole messages (`id:` and `data:` lines, blank line after). */
function framesOf(chunk: string): Frame[] {
  expect(chunk.endsWith('\n\n')).toBe(true);
  return chunk
    .slice(0, -2)
    .split('\n\n')
    .filter((block) => !block.startsWith('retry: '))
    .map((block) => {
      const [idLine = '', dataLine = '', ...rest] = block.split('\n');
      expect(rest).toEqual([]);
      expect(idLine.startsWith('id: ') && dataLine.startsWith('data: ')).toBe(true);
      return { id: idLine.slice('id: '.length), data: JSON.parse(dataLine.slice('data: '.length)) };
    });
}

/** A live SSE response read on a plain socket: the chunks of its chunked body (one per server write) as they come. */
interface RawStream {
  readonly chunks: string[];
  /** Stops reading the socket (the server's writes back up), and reads again. */
  pause(): void;
  resume(): void;
  /** Resolves once `done(chunks)` holds; fails after `WAIT_MS`. */
  until(done: (chunks: readonly string[]) => boolean): Promise<void>;
  close(): void;
}

function openRawStream(conversationId: string): RawStream {
  const { hostname: host, port } = new URL(h.baseUrl);
  const socket = connect({ host, port: Number(port) });
  socket.write(
    `GET /conversations/${conversationId}/events HTTP/1.1\r\nHost: ${host}\r\n` +
      'Authorization: Bearer key_write\r\nAccept: text/event-stream\r\n\r\n',
  );
  const chunks: string[] = [];
  let raw = '';
  let head: string | undefined;
  let wake: () => void = () => undefined;
  socket.on('data', (data: Buffer) => {
    raw += data.toString('latin1');
    if (head === undefined) {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      head = raw.slice(0, end);
      raw = raw.slice(end + 4);
    }
    for (;;) {
      const lineEnd = raw.indexOf('\r\n');
      if (lineEnd < 0) break;
      const size = Number.parseInt(raw.slice(0, lineEnd), 16);
      if (size === 0 || raw.length < lineEnd + 2 + size + 2) break;
      chunks.push(Buffer.from(raw.slice(lineEnd + 2, lineEnd + 2 + size), 'latin1').toString('utf8'));
      raw = raw.slice(lineEnd + 2 + size + 2);
    }
    wake();
  });
  return {
    chunks,
    async until(done) {
      const deadline = Date.now() + WAIT_MS;
      while (!done(chunks)) {
        const left = deadline - Date.now();
        if (left <= 0 || socket.destroyed) {
          throw new Error(`stream condition not met (head: ${head}; ${chunks.length} chunks: ${chunks.join('|')})`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/transfer-encoding: chunked/i);
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.destroy(),
  };
}

/** The ids each chunk carries, in order (the `retry:` chunk carries none). */
const idsByChunk = (chunks: readonly string[]) => chunks.map((chunk) => framesOf(chunk).map((frame) => frame.id));
const hasIds = (ids: readonly string[]) => (chunks: readonly string[]) => {
  const seen = new Set(idsByChunk(chunks).flat());
  return ids.every((id) => seen.has(id));
};

/** A started chat with events in its log (so that a new stream's history is never empty); returns its id. */
async function chatWithHistory(): Promise<string> {
  const created = await startConversation(h.writer, agents.agentId, { type: 'chat_async' });
  // Started, so that each injection logs its event at once (while queued they wait for `conversation.started`).
  await startChat(h.baseUrl, 'key_write', created.id);
  await h.writer.conversations.injectContext(created.id, { data: { seq: 'history' } });
  return created.id;
}

/** Injects one context value; resolves to the id of the `conversation.context.updated` event it logged. */
async function inject(id: string, seq: string, filler = ''): Promise<string> {
  const data: Record<string, string> = filler === '' ? { seq } : { seq, filler };
  return (await h.writer.conversations.injectContext(id, { data })).event_id;
}

/** Injects `count` values with `filler`, one after another; resolves to their event ids. */
async function injectMany(id: string, count: number, filler = ''): Promise<string[]> {
  const ids: string[] = [];
  for (let seq = 0; seq < count; seq++) ids.push(await inject(id, String(seq), filler));
  return ids;
}

/** The longest message of `chunks`, in characters, with its blank line. */
const longestMessage = (chunks: readonly string[]) =>
  Math.max(...chunks.flatMap((chunk) => chunk.split('\n\n').map((block) => block.length + 2)));

describe('SSE writes', () => {
  it('writes a lone event at once, in a write of its own, and the one logged right after it in a later write', async () => {
    const id = await chatWithHistory();
    const stream = openRawStream(id);
    try {
      await stream.until((chunks) => idsByChunk(chunks).flat().length > 0);
      await sleep(50);
      const lone = await inject(id, 'lone');
      const next = await inject(id, 'next');
      await stream.until(hasIds([lone, next]));
      const byChunk = idsByChunk(stream.chunks);
      const loneChunk = byChunk.findIndex((ids) => ids.includes(lone));
      const nextChunk = byChunk.findIndex((ids) => ids.includes(next));
      // Not held back for company: an implementation that waits before every write would send both together.
      expect(byChunk[loneChunk]).toEqual([lone]);
      expect(nextChunk).toBeGreaterThan(loneChunk);
    } finally {
      stream.close();
    }
  });

  it('writes each of events logged one after another as it comes, not gathered by a clock', async () => {
    const count = 30;
    const id = await chatWithHistory();
    const stream = openRawStream(id);
    try {
      await stream.until((chunks) => idsByChunk(chunks).flat().length > 0);
      const before = stream.chunks.length;
      const ids = await injectMany(id, count);
      await stream.until(hasIds(ids));
      const chunks = stream.chunks.slice(before);
      const frames = chunks.flatMap(framesOf);
      expect(frames.map((frame) => frame.id)).toEqual(ids);
      expect(frames.map((frame) => frame.data.payload.data?.seq)).toEqual(ids.map((_, seq) => String(seq)));
      // Each injection is awaited, so each event is logged in a turn of its own: with nothing in the socket's way,
      // most go out alone (a stream paced by a clock gathers them into a few writes).
      expect(chunks.length).toBeGreaterThan(count / 2);
    } finally {
      stream.close();
    }
  });

  it(`writes a history in full writes of ${SSE_BATCH_LENGTH} characters plus at most one event`, async () => {
    const id = await chatWithHistory();
    const ids = await injectMany(id, 60, 'x'.repeat(3000));
    const stream = openRawStream(id);
    try {
      await stream.until(hasIds(ids));
      const chunks = stream.chunks.filter((chunk) => framesOf(chunk).length > 0);
      const frames = chunks.flatMap(framesOf);
      const injected = new Set(ids);
      expect(frames.map((frame) => frame.id).filter((frameId) => injected.has(frameId))).toEqual(ids);
      const longest = longestMessage(chunks);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(SSE_BATCH_LENGTH + longest);
      // Ready together, so gathered: every write but the last is full.
      for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(SSE_BATCH_LENGTH);
      expect(chunks.length).toBeLessThanOrEqual(Math.ceil(chunks.join('').length / SSE_BATCH_LENGTH));
    } finally {
      stream.close();
    }
  });

  it('holds its writes while the reader does not read, and loses nothing when it reads again', async () => {
    const id = await chatWithHistory();
    const stream = openRawStream(id);
    try {
      await stream.until((chunks) => idsByChunk(chunks).flat().length > 0);
      stream.pause();
      // About 2 MB logged while the reader sleeps: far more than the socket buffers hold.
      const ids = await injectMany(id, 40, 'y'.repeat(50_000));
      await sleep(100);
      stream.resume();
      await stream.until(hasIds(ids));
      const chunks = stream.chunks.filter((chunk) => framesOf(chunk).length > 0);
      const injected = new Set(ids);
      const seen = chunks.flatMap(framesOf).map((frame) => frame.id);
      expect(seen.filter((frameId) => injected.has(frameId))).toEqual(ids);
      const longest = longestMessage(chunks);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(SSE_BATCH_LENGTH + longest);
    } finally {
      stream.close();
    }
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
