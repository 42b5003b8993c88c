// A bare node:http server answering every request with one fixed JSON body (the `BODY` environment variable), on
// 127.0.0.1 and an OS-chosen port; prints `{"port":…}` once listening. The peer server of client.mjs and emulator.mjs.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BODY ?? '{}');
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
