/**
 * The answer of an `http` operation whose response is `text/event-stream`: the handler's `body` is an iterable or
 * async iterable of items, each written as one SSE event (`data: <JSON of item>`, a string item as it is), then the
 * response ends.
 */
import { Readable } from 'node:stream';
import { formatMessage } from './sse-format.js';

/** Items a handler may answer an event stream with. */
export type EventStreamItems<T = unknown> = AsyncIterable<T> | Iterable<T>;

/** Whether `value` can be iterated, synchronously or not (a string cannot: it is one item). */
export function isEventStreamItems(value: unknown): value is EventStreamItems {
  return value !== null && typeof value === 'object' && (Symbol.asyncIterator in value || Symbol.iterator in value);
}

/**
 * The SSE text of `items`, one event per item, as a stream that ends after the last one; `check` sees each item
 * first (it throws to cut the stream, as response validation does).
 */
export function eventStreamOf(items: EventStreamItems, check?: (item: unknown) => void): Readable {
  return Readable.from(frames(items, check), { objectMode: false });
}

async function* frames(items: EventStreamItems, check?: (item: unknown) => void): AsyncGenerator<string> {
  for await (const item of items) {
    check?.(item);
    yield formatMessage({ data: typeof item === 'string' ? item : JSON.stringify(item) });
  }
}
