/**
 * How the SSE stream groups events into writes, observed on a raw socket over loopback: each HTTP chunk of the
 * chunked body is one server write. A lone event goes out at once, in a write of its own; events that follow the
 * previous write within `SSE_WRITE_INTERVAL_MS` go out together (never more than one write per interval); a write
 * holds whole events and stays under `SSE_BATCH_LENGTH` plus one event; no event is lost, repeated or reordered.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSE_BATCH_LENGTH, SSE_WRITE_INTERVAL_MS } from '../../reference/http/events-stream.js';
import { readUntilType, type ScenarioAgents, startConversation, startScenario, WAIT_MS } from './fixtures.js';
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
  const session = h.writer.conversations.session(created.id);
  try {
    session.send({ payload: { type: 'conversation.start' } });
    await readUntilType(session, 'conversation.started');
  } finally {
    session.close();
  }
  await h.writer.conversations.injectContext(created.id, { data: { seq: 'history' } });
  return created.id;
}

/** Injects one context value; resolves to the id of the `conversation.context.updated` event it logged. */
async function inject(id: string, seq: string, filler = ''): Promise<string> {
  const data: Record<string, string> = filler === '' ? { seq } : { seq, filler };
  return (await h.writer.conversations.injectContext(id, { data })).event_id;
}

describe('SSE writes', () => {
  it('writes a lone event at once, in a write of its own, and the one logged right after it in a later write', async () => {
    const id = await chatWithHistory();
    const stream = openRawStream(id);
    try {
      await stream.until((chunks) => idsByChunk(chunks).flat().length > 0);
      await sleep(3 * SSE_WRITE_INTERVAL_MS);
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

  it('gathers events logged in quick succession: at most one write per interval, each event once and in order', async () => {
    const count = 40;
    const id = await chatWithHistory();
    const stream = openRawStream(id);
    try {
      await stream.until((chunks) => idsByChunk(chunks).flat().length > 0);
      const before = stream.chunks.length;
      const started = performance.now();
      const ids: string[] = [];
      for (let seq = 0; seq < count; seq++) ids.push(await inject(id, String(seq)));
      const elapsed = performance.now() - started;
      await stream.until(hasIds(ids));

      const chunks = stream.chunks.slice(before);
      const frames = chunks.flatMap(framesOf);
      expect(frames.map((frame) => frame.id)).toEqual(ids);
      expect(frames.map((frame) => frame.data.payload.data?.seq)).toEqual(ids.map((_, seq) => String(seq)));
      // The first write goes out at once; each later one at least an interval after the one before, and the last
      // at most an interval after the last event was logged.
      expect(chunks.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / SSE_WRITE_INTERVAL_MS));
      // One write per event is what the stream did without the interval (each injection is awaited).
      expect(chunks.length).toBeLessThan(count / 2);
    } finally {
      stream.close();
    }
  });

  it(`writes a long history in writes of at most ${SSE_BATCH_LENGTH} characters plus one event`, async () => {
    const id = await chatWithHistory();
    const filler = 'x'.repeat(3000);
    const ids: string[] = [];
    for (let seq = 0; seq < 24; seq++) ids.push(await inject(id, String(seq), filler));
    const stream = openRawStream(id);
    try {
      await stream.until(hasIds(ids));
      const chunks = stream.chunks.filter((chunk) => framesOf(chunk).length > 0);
      const frames = chunks.flatMap(framesOf);
      const injected = new Set(ids);
      expect(frames.map((frame) => frame.id).filter((frameId) => injected.has(frameId))).toEqual(ids);
      const longest = Math.max(...chunks.flatMap((chunk) => chunk.split('\n\n').map((block) => block.length + 2)));
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(SSE_BATCH_LENGTH + longest);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.length).toBeLessThanOrEqual(Math.ceil((frames.length * longest) / SSE_BATCH_LENGTH) + 1);
    } finally {
      stream.close();
    }
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
