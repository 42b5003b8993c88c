/**
 * The items of a `text/event-stream` answer of a plain HTTP operation: each event's `data`, parsed as JSON when it
 * is JSON, else the string; an empty `data` or `[DONE]` (OpenAI's end marker) ends them.
 */
import { createParser } from 'eventsource-parser';

const STREAM = { stream: true } as const;

/** One event's item: its data as JSON, else as the string it is. */
function itemOf(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Whether an event's data ends the stream. */
function isEnd(data: string): boolean {
  return data === '' || data === '[DONE]';
}

/**
 * The items of `response`'s body, read as they arrive; leaving the loop early closes the connection. `signal`
 * aborts the reading; a failed read (an abort or a broken connection) throws what `failure` makes of its error.
 * `release` is called once the reading ends, however it ends.
 */
export async function* eventStreamItems(
  response: Response,
  signal: AbortSignal | undefined,
  release: () => void,
  failure: (error: unknown) => unknown,
): AsyncGenerator<unknown, void, undefined> {
  if (response.body === null) return release();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  // A read pending when the request aborts rejects with the abort itself: Node's fetch can leave such a read
  // pending for ever (nodejs/node#56917).
  let failRead: ((reason: unknown) => void) | undefined;
  const onAbort = () => failRead?.(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const read = () =>
    new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      failRead = reject;
      reader.read().then(resolve, reject);
    });
  try {
    for (;;) {
      const { done, value } = await read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, STREAM));
      for (const data of pending.splice(0)) {
        if (isEnd(data)) return;
        yield itemOf(data);
      }
      if (done) return;
    }
  } catch (error) {
    throw failure(error);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
    release();
  }
}
