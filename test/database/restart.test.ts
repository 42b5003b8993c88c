/**
 * The state survives `kill -9`: a `casi serve` process on the embedded database, then on PostgreSQL, gets agents,
 * a conversation, a WebSocket chat and an SSE subscriber; killed and restarted on the same database, it gives back
 * every agent, the conversation, its history with the same ids and its token, and a subscriber resuming with its
 * last id gets exactly what followed. Unset, `CASI_DATABASE_URL` puts the database in `.casi/` of the working folder.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import {
  createScenarioAgents,
  idsOf,
  proceduralConfig,
  readUntil,
  readUntilType,
  startConversation,
} from '../e2e/fixtures.js';
import { databaseKinds } from './database-kinds.js';
import { PROCESS_MS, type ServeProcess, startServe } from './serve-process.js';

const folders: string[] = [];
const servers: ServeProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill9();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A new empty folder (its real path: the server prints paths resolved from its working folder). */
function folder(): string {
  const created = realpathSync(mkdtempSync(join(tmpdir(), 'casi-restart-')));
  folders.push(created);
  return created;
}

async function serve(cwd: string, env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServe(cwd, env);
  servers.push(server);
  return server;
}

const clientOf = (server: ServeProcess): Client =>
  createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0, timeoutMs: 10_000 });

/** Reads `source` up to and including the event with id `lastId`. */
const readThrough = (source: AsyncIterable<ServerEvent>, lastId: string | undefined) =>
  readUntil(source, (event) => event.id === lastId);

describe.each(databaseKinds())('kill -9 and restart on the $kind database', ({ start, url, stop }) => {
  beforeAll(start, PROCESS_MS);
  afterAll(stop);

  it(
    'gives back agents, the conversation, its history and token; a resumed subscriber gets exactly what followed',
    async () => {
      const cwd = folder();
      const env = { CASI_DATABASE_URL: url(cwd) };
      const first = await serve(cwd, env);
      const before = clientOf(first);
      const agents = await createScenarioAgents(before);
      const created = await startConversation(before, agents.agentId, { type: 'chat_realtime' });
      const { token } = created.channel;
      const subscriber = before.conversations.events(created.id, { token });
      const session = before.conversations.session(created.id, { token });
      let chat: ServerEvent[];
      let seen: ServerEvent[];
      try {
        await session.ready;
        session.send({ payload: { type: 'conversation.start' } });
        session.send({ payload: { type: 'user.message.send', text: 'Hello there' } });
        chat = await readUntilType(session, 'agent.message.completed');
        seen = await readThrough(subscriber, chat.at(-1)?.id);
      } finally {
        session.close();
        subscriber.close();
      }
      expect(idsOf(seen)).toEqual(idsOf(chat));
      const state = async (client: Client) => ({
        agent: await client.conversationalAgents.retrieve(agents.agentId),
        versions: await client.conversationalAgents.listVersions(agents.agentId),
        procedural: await client.proceduralAgents.retrieve(agents.proceduralId),
        procedurals: await client.proceduralAgents.list(),
        conversation: await client.conversations.retrieve(created.id),
        conversations: await client.conversations.list().firstPage(),
      });
      const kept = await state(before);
      expect(kept.conversation.status).toBe('in-progress');

      await first.kill9();
      const second = await serve(cwd, env);
      expect(second.apiKey).toBe(first.apiKey);
      const after = clientOf(second);
      expect(await state(after)).toEqual(kept);

      // The whole history with its ids, read with the conversation's token.
      const history = await readThrough(after.conversations.events(created.id, { token }), chat.at(-1)?.id);
      expect(history).toEqual(chat);
      // Resuming after the third event gives the rest, then what the chat adds after the restart, nothing twice.
      const resumed = after.conversations.events(created.id, { token, lastEventId: chat[2]?.id });
      const again = after.conversations.session(created.id, { token });
      try {
        await again.ready;
        again.send({ payload: { type: 'user.message.send', text: 'Still there?' } });
        again.send({ payload: { type: 'conversation.end' } });
        const rest = await readUntil(again);
        const continued = rest.slice(rest.findIndex((event) => event.id === chat.at(-1)?.id) + 1);
        expect(continued[0]?.payload).toEqual({ type: 'user.message.received', text: 'Still there?' });
        expect(continued.at(-1)?.payload.type).toBe('conversation.ended');
        const followed = await readUntil(resumed);
        expect(idsOf(followed)).toEqual(idsOf([...chat.slice(3), ...continued]));
      } finally {
        again.close();
        resumed.close();
      }
    },
    PROCESS_MS * 3,
  );
});

describe('CASI_DATABASE_URL unset', () => {
  it(
    'creates the embedded database in .casi/ of the working folder, prints it, and keeps the key across restarts',
    async () => {
      const cwd = folder();
      const first = await serve(cwd, {});
      expect(first.database).toBe(`embedded, in ${join(cwd, '.casi')}`);
      expect(existsSync(join(cwd, '.casi', 'PG_VERSION'))).toBe(true);
      const agent = await clientOf(first).proceduralAgents.create({
        name: 'Notes',
        description: '',
        config: proceduralConfig(),
      });
      await first.kill9();
      const second = await serve(cwd, {});
      expect(second.apiKey).toBe(first.apiKey);
      expect((await clientOf(second).proceduralAgents.retrieve(agent.id)).id).toBe(agent.id);
    },
    PROCESS_MS * 3,
  );
});
