/** A raw SSE subscriber over node:http whose reading the test controls (paused, then resumed), for backpressure. */
import { get, type IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';

/** A subscriber that has its response but reads nothing until `resume()`. */
export interface PausedSubscriber {
  readonly response: IncomingMessage;
  /** Reads the rest of the stream; resolves with every event's parsed data once the server ends it. */
  resume(): Promise<unknown[]>;
  close(): void;
}

/** Opens `url` with `apiKey` and pauses the response at once. */
export function openPaused(url: string, apiKey: string): Promise<PausedSubscriber> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      // A connection of its own (not one kept alive by the client's calls through the global agent).
      { headers: { Authorization: `Bearer ${apiKey}`, Accept: 'text/event-stream' }, agent: false },
      (response) => {
        response.pause();
        resolve({
          response,
          resume: () =>
            new Promise((done, fail) => {
              const events: unknown[] = [];
              const parser = createParser({ onEvent: (m) => events.push(JSON.parse(m.data)) });
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => parser.feed(chunk));
              response.on('end', () => done(events));
              response.on('error', fail);
              response.resume();
            }),
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
  });
}
