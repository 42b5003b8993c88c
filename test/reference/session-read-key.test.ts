/**
 * A read-only key on the WebSocket session (real sockets over loopback): it may open the session and watch it, but
 * every client event it sends is answered by `server.error` `forbidden` and changes nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startReference, type Target } from '../../conformance/target.js';
import { createChat, headersOf } from './helpers/loopback.js';

let target: Target;

beforeAll(async () => {
  target = await startReference();
});

afterAll(async () => {
  await target?.close();
});

async function conversation(id: string): Promise<{ status: string; context: unknown }> {
  const answer = await fetch(`${target.baseUrl}/conversations/${id}`, {
    headers: headersOf(target.keys.write),
  });
  return (await answer.json()) as { status: string; context: unknown };
}

type Frame = { payload: { type: string; error?: string; source_event_id?: string } };

/** Opens a session with `key`, sends `frames`, and collects what comes until `done` holds (bounded: 5 s). */
async function session(id: string, key: string, frames: readonly unknown[], done: (got: Frame[]) => boolean) {
  const url = `${target.baseUrl.replace('http', 'ws')}/conversations/${id}/session`;
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${key}` } });
  const got: Frame[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(got)}`)), 5000);
    socket.on('open', () => {
      for (const frame of frames) socket.send(JSON.stringify(frame));
    });
    socket.on('message', (data) => {
      got.push(JSON.parse(data.toString()) as Frame);
      if (done(got)) {
        clearTimeout(timer);
        resolve();
      }
    });
    socket.on('error', reject);
  });
  socket.terminate();
  return got;
}

describe('a read-only key on the session', () => {
  it('gets server.error forbidden for every client event, and the conversation does not change', async () => {
    const id = await createChat(target);
    const frames = [
      { id: 'c1', payload: { type: 'conversation.context.update', data: { tier: 'gold' } } },
      { id: 'c2', payload: { type: 'user.message.send', text: 'hello' } },
      { id: 'c3', payload: { type: 'conversation.start' } },
      { id: 'c4', payload: { type: 'conversation.end' } },
      '{"id":"c5","payload":', // not JSON: still forbidden
    ];
    const errors = (got: Frame[]) => got.filter((e) => e.payload.type === 'server.error');
    const got = await session(id, target.keys.read ?? '', frames, (g) => errors(g).length === frames.length);
    expect(errors(got).map((e) => [e.payload.source_event_id, e.payload.error?.split(':')[0]])).toEqual([
      ['c1', 'forbidden'],
      ['c2', 'forbidden'],
      ['c3', 'forbidden'],
      ['c4', 'forbidden'],
      [undefined, 'forbidden'],
    ]);
    expect(got.map((e) => e.payload.type).filter((t) => t !== 'server.error')).toEqual(['conversation.setup']);
    const record = await conversation(id);
    expect(record.status).toBe('queued');
    expect(JSON.stringify(record)).not.toContain('gold');
  });

  it('still watches the session: it receives what a write key does there', async () => {
    const id = await createChat(target);
    const watched = session(id, target.keys.read ?? '', [], (g) =>
      g.some((e) => e.payload.type === 'conversation.ended'),
    );
    await session(id, target.keys.write, [{ id: 'w1', payload: { type: 'conversation.end' } }], (g) =>
      g.some((e) => e.payload.type === 'conversation.ended'),
    );
    expect((await watched).map((e) => e.payload.type)).toEqual([
      'conversation.setup',
      'conversation.started',
      'conversation.ended',
    ]);
  });
});
