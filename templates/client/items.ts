/** `itemsOf`: an operation's event stream as a typed `AsyncIterable` that sends its request when iterated. */

/**
 * The items of an operation's event stream, typed as the spec documents them: the request (`open`) is sent when the
 * iteration starts, and again for each new iteration; its errors are thrown by the first `next()`.
 */
export function itemsOf<T>(open: () => Promise<AsyncIterable<unknown>>): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* (await open()) as AsyncIterable<T>;
    },
  };
}
