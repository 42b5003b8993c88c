/** Cursor pagination: iterate every item of a list (`{data, cursor}` or `{page, cursor}`) across its pages. */
import { CasiError } from './errors.js';

/** The item type of a page body whose items sit under `K`. */
export type PageItem<Page, K extends keyof Page> = Page[K] extends readonly (infer Item)[] ? Item : never;

/**
 * A list: `for await` gives every item; `pages()` every page body; `firstPage()` the first one only; `toArray()` and
 * `take(n)` collect items.
 */
export interface Paginated<Page, Item> extends AsyncIterable<Item> {
  /** Every page body in order, following `cursor` until it is `null`. */
  pages(): AsyncIterable<Page>;
  /** The first page body. */
  firstPage(): Promise<Page>;
  /** Every item of every page. */
  toArray(): Promise<Item[]>;
  /** The first `count` items (fewer when the list is shorter); no page after the one holding the last is fetched. */
  take(count: number): Promise<Item[]>;
}

/** Most pages one iteration follows before giving up (a guard against a server that never ends). */
export const MAX_PAGES = 100_000;

/**
 * A list over `fetchPage(cursor)`, called with `undefined` for the first page and then with each page's `cursor`.
 * Nothing is fetched until iteration starts; each iteration starts again from the first page.
 */
export function paginate<
  K extends 'data' | 'page',
  Page extends { [P in K]: readonly unknown[] } & { cursor?: string | null | undefined },
>(fetchPage: (cursor: string | undefined) => Promise<Page>, itemsKey: K): Paginated<Page, PageItem<Page, K>> {
  async function* pages(): AsyncGenerator<Page> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let count = 0; count < MAX_PAGES; count++) {
      const page = await fetchPage(cursor);
      yield page;
      const next = page.cursor;
      if (next === null || next === undefined) return;
      if (seen.has(next)) throw new CasiError(`Pagination cursor ${next} came back twice; stopping.`);
      seen.add(next);
      cursor = next;
    }
    throw new CasiError(`Pagination stopped after ${MAX_PAGES} pages.`);
  }
  async function* items(): AsyncGenerator<PageItem<Page, K>> {
    for await (const page of pages()) {
      const items = page[itemsKey];
      if (!Array.isArray(items)) throw new CasiError(`A page has no ${String(itemsKey)} array.`);
      yield* items as PageItem<Page, K>[];
    }
  }
  async function take(count: number): Promise<PageItem<Page, K>[]> {
    const taken: PageItem<Page, K>[] = [];
    if (count <= 0) return taken;
    for await (const item of items()) {
      taken.push(item);
      if (taken.length >= count) break;
    }
    return taken;
  }
  return {
    pages,
    firstPage: () => fetchPage(undefined),
    toArray: () => take(Number.POSITIVE_INFINITY),
    take,
    [Symbol.asyncIterator]: items,
  };
}
