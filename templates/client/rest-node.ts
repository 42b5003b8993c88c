/**
 * The Node transport of REST calls: `node:http` / `node:https` with their global keep-alive agents. It sends what
 * the fetch transport sends (method, headers, body), follows redirects as fetch does, and cancels an attempt by
 * destroying its request; without fetch's `Request`, web streams and abort signal per call, a call on loopback
 * takes about half the time. Loaded with `import()`, so a browser bundle only carries it as a chunk it never loads.
 */
import type { IncomingMessage } from 'node:http';
import type { Answer, Exchange } from './exchange.js';
import { headersOf, type NodeRequest, nodeRequestFor, type RequestFor, readText, redirected } from './node-http.js';

/** The `node:http` transport (in Node only: see `hasNodeHttp`). */
export function nodeExchange(): Exchange {
  const requestFor = nodeRequestFor();
  return (url, outgoing, limits) =>
    new Promise<Answer>((resolve, reject) => {
      const signal = limits.signal;
      let settled = false;
      let cancel = () => {};
      const finish = (error: unknown, answer?: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (answer !== undefined) return resolve(answer);
        cancel();
        reject(error);
      };
      const onAbort = () => finish(signal?.reason);
      const timer = Number.isFinite(limits.timeoutMs)
        ? // As `timedOut` in exchange.ts, which this chunk does not import.
          setTimeout(
            () => finish(new DOMException(`Timed out after ${limits.timeoutMs} ms.`, 'TimeoutError')),
            limits.timeoutMs,
          )
        : undefined;
      if (signal?.aborted) return finish(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const request: NodeRequest = { url: new URL(url), ...outgoing, headers: { ...outgoing.headers } };
      send(requestFor, request, 0, (stop) => {
        cancel = stop;
      }).then(
        (answer) => finish(undefined, answer),
        (error: unknown) => finish(error),
      );
    });
}

/**
 * Sends `request`, following redirects, and reads the final answer. `onRequest` is given, for each request sent,
 * the function that destroys it (called when the attempt fails, times out or is aborted).
 */
async function send(
  requestFor: RequestFor,
  request: NodeRequest,
  redirects: number,
  onRequest: (stop: () => void) => void,
): Promise<Answer> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const req = requestFor(request.url)(request.url, { method: request.method, headers });
    onRequest(() => req.destroy());
    req.on('error', reject);
    req.once('response', resolve);
    req.end(request.body);
  });
  const next = redirected(request, res, redirects);
  if (next !== undefined) {
    res.resume();
    return send(requestFor, next, redirects + 1, onRequest);
  }
  return { status: res.statusCode ?? 0, text: await readText(res), headers: () => headersOf(res) };
}
