/**
 * Resuming beyond what memory holds: `casi serve` keeps only 5 events per conversation and 20 in all in memory
 * (`CASI_MAX_EVENTS*`), a chat logs several times that, and SSE subscribers over HTTP still get the whole history,
 * or exactly what followed a `Last-Event-ID` long dropped from memory, read back from the database in order with
 * the same ids. On the embedded database and on PostgreSQL.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/src/client.gen.js';
import { createScenarioAgents, idsOf } from '../e2e/fixtures.js';
import { databaseKinds } from './database-kinds.js';
import { RawSession, SseReader, type Target } from './raw-clients.js';
import { PROCESS_MS, type ServeProcess, startServe } from './serve-process.js';
import { within } from './within.js';

/** What memory holds: far fewer events than the chat logs. */
const MEMORY = { CASI_MAX_EVENTS_PER_CONVERSATION: '5', CASI_MAX_EVENTS: '20' };
const WAIT_MS = 10_000;

const folders: string[] = [];
const servers: ServeProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill9();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The events an SSE subscriber gets (after `lastEventId`) until it has `count` of them or the stream ends. */
async function sse(target: Target, count: number, lastEventId?: string) {
  const reader = new SseReader(target, lastEventId);
  try {
    await within(
      (async () => {
        let ended = false;
        void reader.done.then(() => {
          ended = true;
        });
        while (!ended && reader.events.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      WAIT_MS,
      `${count} events over SSE`,
    );
  } finally {
    reader.close();
  }
  expect(reader.status).toBe(200);
  return reader.events;
}

describe.each(databaseKinds())('resuming beyond memory on the $kind database', ({ start, url, stop }) => {
  beforeAll(start, PROCESS_MS);
  afterAll(stop);

  it(
    'gives the whole history, and exactly what followed an id long dropped from memory, over SSE',
    async () => {
      const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'casi-resume-')));
      folders.push(cwd);
      const server = await startServe(cwd, { CASI_DATABASE_URL: url(cwd), ...MEMORY });
      servers.push(server);
      const client = createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0 });
      const { agentId } = await createScenarioAgents(client);
      const created = await client.conversations.create({ agent_id: agentId, channel: { type: 'chat_realtime' } });
      const target = { baseUrl: server.baseUrl, conversationId: created.id, token: created.channel.token };
      const session = new RawSession(target);
      try {
        await session.open;
        for (let turn = 0; turn < 4; turn++) {
          const replied = session.next('agent.message.completed');
          session.send({ type: 'user.message.send', text: `turn ${turn}: one two three four five six seven eight` });
          await within(replied, WAIT_MS, `the reply of turn ${turn}`);
        }
      } finally {
        session.close();
      }
      const logged = session.events;
      expect(logged.length).toBeGreaterThan(2 * Number(MEMORY.CASI_MAX_EVENTS));

      expect(idsOf(await sse(target, logged.length))).toEqual(idsOf(logged));
      expect(await sse(target, logged.length - 3, logged[2]?.id)).toEqual(logged.slice(3));

      // Ended: a resume from the third event reads the rest and the end, then the stream ends.
      await client.conversations.injectContext(created.id, { data: { note: 'last' } });
      const ending = new RawSession(target, logged.at(-1)?.id);
      await ending.open;
      const closing = ending.next('conversation.ended');
      ending.send({ type: 'conversation.end' });
      await within(closing, WAIT_MS, 'the end');
      ending.close();
      const rest = await sse(target, Number.MAX_SAFE_INTEGER, logged[2]?.id);
      expect(idsOf(rest)).toEqual(idsOf([...logged.slice(3), ...ending.events]));
      expect(rest.at(-1)?.payload.type).toBe('conversation.ended');
    },
    PROCESS_MS * 2,
  );
});
