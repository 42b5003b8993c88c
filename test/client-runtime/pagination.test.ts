/** paginate against a real server: `{data, cursor}` and `{page, cursor}` lists over several pages. */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import { CasiError } from '../../templates/client/errors.js';
import { paginate } from '../../templates/client/pagination.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';
import type { Item, paths } from './helpers/paths.js';

const ITEMS: Item[] = Array.from({ length: 8 }, (_, i) => ({ id: `it_${i}`, name: `item ${i}` }));
const PAGE_SIZE = 3;
let server: TestServer;
let calls: string[] = [];

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    calls.push(url.search);
    const start = Number(url.searchParams.get('cursor')?.replace('cur_', '') ?? '0');
    const items = ITEMS.slice(start, start + PAGE_SIZE);
    const cursor = start + PAGE_SIZE < ITEMS.length ? `cur_${start + PAGE_SIZE}` : null;
    const key = url.pathname === '/procedures' ? 'page' : 'data';
    sendJson(res, 200, { [key]: items, cursor });
  });
});
afterAll(() => server.close());

const core = () => createCore<paths>({ baseUrl: server.url, serviceVersion: '2025-06-19' });
const conversations = () =>
  paginate((cursor) => core().request('get', '/items', { params: { query: { cursor, limit: PAGE_SIZE } } }), 'data');
const procedures = () =>
  paginate((cursor) => core().request('get', '/procedures', { params: { query: { cursor } } }), 'page');

describe('paginate', () => {
  it.each([
    ['{data, cursor}', conversations],
    ['{page, cursor}', procedures],
  ])('iterates every item of %s across pages', async (_name, list) => {
    calls = [];
    const seen: Item[] = [];
    for await (const item of list()) seen.push(item);
    expect(seen).toEqual(ITEMS);
    expect(calls).toHaveLength(3);
    expect(calls[1]).toContain('cursor=cur_3');
  });

  it('yields the page bodies and the first page alone', async () => {
    const bodies = [];
    for await (const page of conversations().pages()) bodies.push(page);
    expect(bodies.map((page) => page.data.length)).toEqual([3, 3, 2]);
    expect(bodies.map((page) => page.cursor)).toEqual(['cur_3', 'cur_6', null]);
    calls = [];
    const first = await procedures().firstPage();
    expect(first.page).toEqual(ITEMS.slice(0, 3));
    expect(calls).toHaveLength(1);
  });

  it('stops fetching when the loop breaks', async () => {
    calls = [];
    for await (const item of conversations()) if (item.id === 'it_1') break;
    expect(calls).toHaveLength(1);
  });

  it('collects every item with toArray, and the first n with take, fetching no page beyond them', async () => {
    calls = [];
    expect(await conversations().toArray()).toEqual(ITEMS);
    expect(calls).toHaveLength(3);
    calls = [];
    expect(await conversations().take(4)).toEqual(ITEMS.slice(0, 4));
    expect(calls).toHaveLength(2);
    calls = [];
    expect(await procedures().take(3)).toEqual(ITEMS.slice(0, 3));
    expect(calls).toHaveLength(1);
    expect(await procedures().take(50)).toEqual(ITEMS);
    calls = [];
    expect(await procedures().take(0)).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('types the items from the page body', () => {
    expectTypeOf(conversations().toArray()).resolves.toEqualTypeOf<Item[]>();
    expectTypeOf(conversations()).toExtend<AsyncIterable<Item>>();
    expectTypeOf(procedures().firstPage()).resolves.toEqualTypeOf<{ page: Item[]; cursor: string | null }>();
  });

  it('refuses a cursor that comes back twice', async () => {
    let fetched = 0;
    const looping = paginate(async () => {
      fetched++;
      return { data: [fetched], cursor: 'same' };
    }, 'data');
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of looping) seen.push(n);
      })(),
    ).rejects.toBeInstanceOf(CasiError);
    expect(seen).toEqual([1, 2]);
  });
});
