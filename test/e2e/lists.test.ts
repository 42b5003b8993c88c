/**
 * Lists through the client's pagination: conversations and procedures newest first, every filter, cursors across
 * at least three pages, and nothing of another organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, type Paginated } from '../../generated/src/client.gen.js';
import { agentConfig, proceduralConfig, startConversation } from './fixtures.js';
import { type Harness, startServer } from './harness.js';

/** Conversations created, one a minute; each phone call completes 6 s after it was created. */
const COUNT = 7;
const MINUTE = 60_000;
const CALL_MS = 6_000;

let h: Harness;
/** Conversation ids, oldest first, and their creation times. */
const conversations: { id: string; createdAt: number }[] = [];
let first = '';
let second = '';

beforeAll(async () => {
  h = await startServer();
  first = (await h.writer.proceduralAgents.create({ name: 'First', description: '', config: proceduralConfig() })).id;
  second = (await h.writer.proceduralAgents.create({ name: 'Second', description: '', config: proceduralConfig() })).id;
  const agent = await h.writer.conversationalAgents.create({
    name: 'Caller',
    description: '',
    config: agentConfig(),
    postprocess_agents: [first, second],
  });
  for (let i = 0; i < COUNT; i++) {
    const createdAt = h.clock.now();
    const { id } = await startConversation(h.writer, agent.id, { type: 'phone', callee_no: '+15557770000' });
    conversations.push({ id, createdAt });
    await h.advance(MINUTE);
  }
});
afterAll(async () => {
  await h.close();
});

/** Every page of a list, bounded. */
async function pagesOf<P>(list: Paginated<P, unknown>, max = 20): Promise<P[]> {
  const pages: P[] = [];
  for await (const page of list.pages()) {
    pages.push(page);
    if (pages.length >= max) throw new Error(`more than ${max} pages`);
  }
  return pages;
}

/** Every item of a list, bounded. */
async function itemsOf<T>(list: AsyncIterable<T>, max = 200): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) {
    items.push(item);
    if (items.length >= max) throw new Error(`more than ${max} items`);
  }
  return items;
}

const iso = (ms: number) => new Date(ms).toISOString();
const at = (index: number) => conversations[index]?.createdAt ?? 0;
/** Conversation ids of `indexes`, newest first (the list order). */
const newestFirst = (indexes: number[]) => indexes.map((i) => conversations[i]?.id).reverse();

describe('GET /conversations', () => {
  it('pages newest first across three pages with the cursor', async () => {
    const pages = await pagesOf(h.writer.conversations.list({ limit: 3 }));
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.cursor === null)).toEqual([false, false, true]);
    const ids = pages.flatMap((p) => p.data.map((c) => c.id));
    expect(ids).toEqual(newestFirst([0, 1, 2, 3, 4, 5, 6]));
    expect(pages[0]?.data[0]).toMatchObject({ status: 'completed', channel_type: 'phone', duration_sec: 4 });
  });

  it('iterates every item with for await', async () => {
    const items = await itemsOf(h.reader.conversations.list({ limit: 2 }));
    expect(items.map((c) => c.id)).toEqual(newestFirst([0, 1, 2, 3, 4, 5, 6]));
  });

  it('filters by creation time (half-open) and by completion time', async () => {
    const created = await itemsOf(
      h.writer.conversations.list({ created_at_gte: iso(at(2)), created_at_lt: iso(at(5)) }),
    );
    expect(created.map((c) => c.id)).toEqual(newestFirst([2, 3, 4]));
    const completed = await itemsOf(
      h.writer.conversations.list({
        completed_at_gte: iso(at(4) + CALL_MS),
        completed_at_lt: iso(at(6) + CALL_MS),
        limit: 1,
      }),
    );
    expect(completed.map((c) => c.id)).toEqual(newestFirst([4, 5]));
    expect(completed.every((c) => c.completed_at !== null)).toBe(true);
  });

  it('shows nothing of another organisation, and refuses a forged cursor', async () => {
    expect((await h.stranger.conversations.list().firstPage()).data).toEqual([]);
    const forged = h.writer.conversations.list({ cursor: 'cur_bm90LWEtY3Vyc29y' }).firstPage();
    await expect(forged).rejects.toBeInstanceOf(BadRequestError);
    await expect(forged).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('GET /procedures', () => {
  beforeAll(async () => {
    await h.advance(2_000);
  });

  it('pages every procedure with the cursor', async () => {
    const pages = await pagesOf(h.writer.procedures.list({ limit: 5 }));
    expect(pages.map((p) => p.page.length)).toEqual([5, 5, 4]);
    const items = pages.flatMap((p) => p.page);
    expect(new Set(items.map((p) => p.id)).size).toBe(2 * COUNT);
    expect(items.every((p) => p.status === 'success')).toBe(true);
    const times = items.map((p) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by agent, by conversation, and by creation time', async () => {
    const ofFirst = await itemsOf(h.writer.procedures.list({ agent_id: first, limit: 3 }));
    expect(ofFirst).toHaveLength(COUNT);
    expect(ofFirst.every((p) => p.agent_id === first)).toBe(true);

    const target = conversations[3]?.id ?? '';
    const ofConversation = await itemsOf(h.writer.procedures.list({ conversation_id: target }));
    expect(ofConversation.map((p) => p.agent_id).sort()).toEqual([first, second].sort());
    expect(ofConversation.every((p) => p.conversation_id === target)).toBe(true);

    const range = { created_at_gte: iso(at(2)), created_at_lt: iso(at(5)) };
    const inRange = await itemsOf(h.writer.procedures.list(range));
    expect(new Set(inRange.map((p) => p.conversation_id))).toEqual(new Set(newestFirst([2, 3, 4])));
    const combined = await itemsOf(h.writer.procedures.list({ ...range, agent_id: second, limit: 1 }));
    expect(combined.map((p) => p.conversation_id)).toEqual(newestFirst([2, 3, 4]));
    expect((await h.stranger.procedures.list().firstPage()).page).toEqual([]);
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
