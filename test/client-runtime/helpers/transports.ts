/**
 * The two REST transports of the client core, for `describe.each`: Node's default (`node:http`), and fetch (what
 * other runtimes use, and Node when the client is given a `fetch`).
 */
export const REST_TRANSPORTS = [
  { transport: 'node:http', fetch: undefined },
  { transport: 'fetch', fetch: (request: Request) => fetch(request) },
];
