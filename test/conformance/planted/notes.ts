/** A server of `notes.yaml`: notes kept per bearer token, or (`leaky`) readable with any token. */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';

/** Starts the server on 127.0.0.1 (an OS-chosen port); resolves to it and its base URL. */
export async function startNotesServer(leaky: boolean): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  const notes = new Map<string, { id: string; text: string; owner: string }>();
  const owner = (header: string | undefined) => (header?.startsWith('Bearer ') ? header.slice(7) : undefined);
  app.post('/notes', async (request, reply) => {
    const token = owner(request.headers.authorization);
    if (token === undefined) return reply.code(401).send();
    const note = { id: `n${notes.size + 1}`, text: String((request.body as { text?: unknown }).text), owner: token };
    notes.set(note.id, note);
    return reply.code(201).send({ id: note.id, text: note.text });
  });
  app.get('/notes/:id', async (request, reply) => {
    const token = owner(request.headers.authorization);
    if (token === undefined) return reply.code(401).send();
    const note = notes.get((request.params as { id: string }).id);
    if (note === undefined || (!leaky && note.owner !== token)) return reply.code(404).send();
    return { id: note.id, text: note.text };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
