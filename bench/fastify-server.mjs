// A bare Fastify server for the emulator benchmark: `GET /conversations/:conversation_id` answers the JSON of the
// `BODY` environment variable (serialised per request, no schema, no validation), on 127.0.0.1 and an OS-chosen
// port; prints `{"port":…}` once listening and closes on SIGTERM.
import Fastify from 'fastify';

const body = JSON.parse(process.env.BODY ?? '{}');
const app = Fastify({ logger: false });
app.get('/conversations/:conversation_id', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ port: app.server.address().port }));
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
