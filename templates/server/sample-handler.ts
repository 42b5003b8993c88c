/**
 * The handler of a route its user gave none: the route's sample answer (the spec's example, or a value of its
 * schema), so a server answers every operation of an edited spec before anyone writes code for it.
 */
import { HttpError } from './errors.js';
import type { AnyHandler, HttpHandler, SseHandler, WebSocketHandler } from './handlers.js';
import type { RouteDefinition } from './route.js';

/** A handler answering `route` from its `sampleAnswer`; 501 `not_implemented` where the spec declares none. */
export function sampleHandler(route: RouteDefinition): AnyHandler {
  const sample = route.sampleAnswer;
  const notImplemented = () =>
    new HttpError(501, 'not_implemented', `${route.method} ${route.path} has no handler and no response to sample.`);
  switch (route.transport) {
    case 'http':
      return (() => {
        if (sample === undefined) throw notImplemented();
        return sample;
      }) satisfies HttpHandler;
    case 'sse':
      // Writes the sample items, then leaves the stream open as a quiet live stream would be.
      return (async (_req, stream) => {
        if (sample === undefined || !Array.isArray(sample.body)) throw notImplemented();
        for (const item of sample.body) await stream.sendJson(item);
        return undefined;
      }) satisfies SseHandler;
    case 'websocket':
      return ((_req, socket) => socket.close(1011, 'no handler')) satisfies WebSocketHandler;
  }
}
