/**
 * A Fastify server of `books.yaml` that keeps its books in memory, or with planted faults: `hideUpdates` answers a
 * PUT as done but keeps the old book, `keepDeleted` answers a DELETE as done but keeps the book readable.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';

/** The faults to plant; none gives a correct server. */
export interface BookFaults {
  readonly hideUpdates?: boolean;
  readonly keepDeleted?: boolean;
}

interface Book {
  readonly id: string;
  readonly title: string;
  readonly pages: number;
}

/** What is wrong with a `NewBook` body, or undefined when it is one. */
function invalidBook(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not an object';
  const { title, pages, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `unknown members: ${Object.keys(rest).join(', ')}`;
  if (typeof title !== 'string' || title.length < 1 || title.length > 40) return 'title: 1 to 40 characters';
  if (!Number.isInteger(pages) || (pages as number) < 1 || (pages as number) > 5000) return 'pages: 1 to 5000';
  return undefined;
}

/** Starts the server on 127.0.0.1 (an OS-chosen port); resolves to it and its base URL. */
export async function startBooksServer(faults: BookFaults = {}): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  const books = new Map<string, Book>();
  let made = 0;
  const bookId = (params: unknown) => (params as { bookId: string }).bookId;
  const known = (id: string) => /^b[0-9]+$/.test(id);
  app.post('/books', async (request, reply) => {
    const problem = invalidBook(request.body);
    if (problem !== undefined) return reply.code(400).send({ message: problem });
    const { title, pages } = request.body as Book;
    const book = { id: `b${++made}`, title, pages };
    books.set(book.id, book);
    return reply.code(201).send(book);
  });
  app.get('/books', async () => ({ items: [...books.values()] }));
  app.get('/books/:bookId', async (request, reply) => {
    const id = bookId(request.params);
    if (!known(id)) return reply.code(400).send({ message: 'bookId: b and digits' });
    return books.get(id) ?? reply.code(404).send({ message: 'no such book' });
  });
  app.put('/books/:bookId', async (request, reply) => {
    const id = bookId(request.params);
    const problem = known(id) ? invalidBook(request.body) : 'bookId: b and digits';
    if (problem !== undefined) return reply.code(400).send({ message: problem });
    if (!books.has(id)) return reply.code(404).send({ message: 'no such book' });
    const { title, pages } = request.body as Book;
    const book = { id, title, pages };
    if (!faults.hideUpdates) books.set(id, book);
    return book;
  });
  app.delete('/books/:bookId', async (request, reply) => {
    const id = bookId(request.params);
    if (!known(id)) return reply.code(400).send({ message: 'bookId: b and digits' });
    if (!books.has(id)) return reply.code(404).send({ message: 'no such book' });
    if (!faults.keepDeleted) books.delete(id);
    return reply.code(204).send();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
