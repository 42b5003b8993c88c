/**
 * A timer is saved before the request that set it is answered: `casi serve` is killed (`kill -9`) the moment the
 * 2xx of calls that set a timer arrive, with no wait, and restarted on the same database; every call's timer then
 * fires once (the call ends once, as busy). On the embedded database and on PostgreSQL.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/src/client.gen.js';
import { PHONE_STEP_MS } from '../../reference/phone.js';
import { createScenarioAgents } from '../e2e/fixtures.js';
import { databaseKinds } from './database-kinds.js';
import { SseReader } from './raw-clients.js';
import { PROCESS_MS, type ServeProcess, startServe } from './serve-process.js';
import { within } from './within.js';

/** Calls created at once before the kill: each answer is followed by the kill of its process, sooner or later. */
const CALLS = 8;
/** The test number of a call that is not answered: its one timer ends it, as busy, after one step. */
const BUSY = '+15005550001';

const folders: string[] = [];
const servers: ServeProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill9();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function serve(cwd: string, env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServe(cwd, env);
  servers.push(server);
  return server;
}

describe.each(databaseKinds())(
  'a timer set by an acknowledged request on the $kind database',
  ({ start, url, stop }) => {
    beforeAll(start, PROCESS_MS);
    afterAll(stop);

    it(
      'fires once after kill -9 right after the 2xx and a restart',
      async () => {
        const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'casi-timer-')));
        folders.push(cwd);
        const env = { CASI_DATABASE_URL: url(cwd) };
        const first = await serve(cwd, env);
        const client = createClient({ baseUrl: first.baseUrl, apiKey: first.apiKey, maxRetries: 0, timeoutMs: 10_000 });
        const { agentId } = await createScenarioAgents(client);
        const calls = await Promise.all(
          Array.from({ length: CALLS }, () =>
            client.conversations.create({ agent_id: agentId, channel: { type: 'phone', callee_no: BUSY } }),
          ),
        );
        await first.kill9();

        const second = await serve(cwd, env);
        const readers = calls.map(
          (call) => new SseReader({ baseUrl: second.baseUrl, conversationId: call.id, token: call.channel.token }),
        );
        try {
          await within(
            Promise.all(readers.map((reader) => reader.done)),
            PHONE_STEP_MS + 15_000,
            'every call ending after the restart',
          );
        } finally {
          for (const reader of readers) reader.close();
        }
        for (const reader of readers) {
          expect(reader.status).toBe(200);
          expect(reader.events.map((event) => event.payload.type)).toEqual([
            'conversation.setup',
            'conversation.ended',
          ]);
        }
        const after = createClient({ baseUrl: second.baseUrl, apiKey: second.apiKey, maxRetries: 0 });
        for (const call of calls) expect((await after.conversations.retrieve(call.id)).status).toBe('busy');
      },
      PROCESS_MS * 3,
    );
  },
);
