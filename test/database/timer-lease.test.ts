/**
 * A timer whose claimer is killed (`kill -9`) while its task runs still fires once: its row stays leased, and when
 * the lease is over the process that claims it runs the task, a restarted one or another instance on the same
 * PostgreSQL. The task is held open by a real dependency: a webhook receiver that holds the retry's request, or the
 * conversation's lock (a PostgreSQL advisory lock) held by the test while a call's step waits for it.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { openEmbedded } from '../../reference/database/embedded.js';
import { PHONE_STEP_MS } from '../../reference/phone.js';
import { TIMER_TAKEOVER_MS } from '../../reference/service.js';
import { TIMER_LEASE_MS } from '../../reference/timers.js';
import { createScenarioAgents } from '../e2e/fixtures.js';
import { startReceiver, type WebhookReceiver } from '../reference/helpers/webhook-receiver.js';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster.js';
import { SseReader } from './raw-clients.js';
import { PROCESS_MS, type ServeProcess, startServe } from './serve-process.js';
import { within } from './within.js';

/** The busy test number: its call's one step (`phone-dial`, after one step) ends it. */
const BUSY = '+15005550001';
/** Longest wait for a leased timer to be taken up: the lease, then a look for overdue rows, and slack. */
const TAKEOVER_WAIT_MS = TIMER_LEASE_MS + 2 * TIMER_TAKEOVER_MS + 5_000;
/** How long nothing more may happen after the timer fired: two looks for overdue rows (a second claim shows). */
const SETTLE_MS = 2 * TIMER_TAKEOVER_MS;

let cluster: PostgresCluster | undefined;
let databases = 0;
const folders: string[] = [];
const servers: ServeProcess[] = [];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, PROCESS_MS);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill9();
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

afterAll(async () => {
  await cluster?.stop();
}, PROCESS_MS);

/** Runs `sql` on the database at `url`. */
async function query<R extends object>(url: string, sql: string, params: string[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R & pg.QueryResultRow>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A working folder of its own for a `casi serve` process. */
function folder(): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'casi-lease-')));
  folders.push(cwd);
  return cwd;
}

/** A new, empty database on the cluster: what each test's instances share. */
async function postgresDatabase(): Promise<string> {
  const base = cluster?.url ?? '';
  const name = `lease_${++databases}`;
  await query(base, `CREATE DATABASE ${name}`);
  return base.replace(/\/postgres$/, `/${name}`);
}

async function serve(cwd: string, env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServe(cwd, env);
  servers.push(server);
  return server;
}

function clientOf(server: ServeProcess): Client {
  return createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0, timeoutMs: 10_000 });
}

/**
 * A receiver that refuses the deliveries before the `held`-th (0-based: 0 the first attempt, 1 the first retry) with
 * a 500, holds that one unanswered, and acknowledges the next.
 */
async function holdingReceiver(held: number): Promise<WebhookReceiver> {
  const receiver = await startReceiver((n) => (n < held ? 500 : n === held ? null : 200));
  receivers.push(receiver);
  return receiver;
}

function webhookEnv(receiver: WebhookReceiver): Record<string, string> {
  return { CASI_WEBHOOK_URL: receiver.url, CASI_WEBHOOK_SECRET: 'whsec_lease' };
}

/** Creates a chat (no timers of its own) and waits until the receiver holds its webhook's `held`-th delivery. */
async function chatWithHeldDelivery(client: Client, receiver: WebhookReceiver, held: number): Promise<string> {
  const { agentId } = await createScenarioAgents(client);
  const created = await client.conversations.create({ agent_id: agentId, channel: { type: 'chat_realtime' } });
  await receiver.waitFor(held + 1, 10_000);
  return created.id;
}

/** The names of the timer rows left once every server is stopped: in the embedded database's folder, or on PostgreSQL. */
async function rowsLeft(url: string): Promise<string[]> {
  for (const server of servers) await server.kill9();
  const sql = 'SELECT name FROM timers ORDER BY name';
  if (!url.startsWith('file:')) return (await query<{ name: string }>(url, sql)).map((row) => row.name);
  const db = await openEmbedded(url.slice('file:'.length));
  try {
    return (await db.query<{ name: string }>(sql)).map((row) => row.name);
  } finally {
    await db.close();
  }
}

/**
 * After the held delivery was taken up: the setup event delivered once more than up to the held one, and no more
 * (the last acknowledged), and no timer row left (nothing more can fire).
 */
async function expectAcknowledgedOnce(
  receiver: WebhookReceiver,
  held: number,
  conversationId: string,
  url: string,
): Promise<void> {
  await receiver.waitFor(held + 2, TAKEOVER_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const events = receiver.deliveries.map((delivery) => JSON.parse(delivery.body) as ServerEvent);
  expect(events).toHaveLength(held + 2);
  expect(events.map((event) => [event.conversation_id, event.payload.type])).toEqual(
    Array.from({ length: held + 2 }, () => [conversationId, 'conversation.setup']),
  );
  expect(new Set(events.map((event) => event.id)).size).toBe(1);
  expect(await rowsLeft(url)).toEqual([]);
}

describe.each([
  { kind: 'embedded', url: async (cwd: string) => `file:${join(cwd, 'state')}` },
  { kind: 'PostgreSQL', url: async () => await postgresDatabase() },
])('a timer whose process is killed while its task runs, on the $kind database', ({ url }) => {
  it.each([
    ['a retry', 1],
    ['the first attempt', 0],
  ] as const)(
    '%s of a webhook, held by its receiver, is sent again after a restart, and acknowledged once',
    async (_attempt, held) => {
      const receiver = await holdingReceiver(held);
      const cwd = folder();
      const env = { CASI_DATABASE_URL: await url(cwd), ...webhookEnv(receiver) };
      const first = await serve(cwd, env);
      const conversationId = await chatWithHeldDelivery(clientOf(first), receiver, held);
      await first.kill9();
      await serve(cwd, env);
      await expectAcknowledgedOnce(receiver, held, conversationId, env.CASI_DATABASE_URL);
    },
    PROCESS_MS,
  );
});

describe('two instances on one PostgreSQL, one killed while a timer task runs', () => {
  it(
    'a webhook retry held by its receiver is sent by the other instance, and acknowledged once',
    async () => {
      const receiver = await holdingReceiver(1);
      const env = { CASI_DATABASE_URL: await postgresDatabase(), ...webhookEnv(receiver) };
      const [first] = await Promise.all([serve(folder(), env), serve(folder(), env)]);
      const conversationId = await chatWithHeldDelivery(clientOf(first), receiver, 1);
      await first.kill9();
      await expectAcknowledgedOnce(receiver, 1, conversationId, env.CASI_DATABASE_URL);
    },
    PROCESS_MS,
  );

  it(
    "a call's step waiting for its conversation's lock is run by the other instance, once",
    async () => {
      const url = await postgresDatabase();
      const env = { CASI_DATABASE_URL: url };
      const [first, second] = await Promise.all([serve(folder(), env), serve(folder(), env)]);
      const client = clientOf(first);
      const { agentId } = await createScenarioAgents(client);
      const call = await client.conversations.create({
        agent_id: agentId,
        channel: { type: 'phone', callee_no: BUSY },
      });
      const name = `${call.id}/phone-dial`;
      // The test holds the conversation's lock: the step, once claimed, waits for it.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`conversation:${call.id}`]);
        const leased = 'SELECT claimed_until FROM timers WHERE name = $1';
        await within(
          (async () => {
            while (Number((await query<{ claimed_until: string }>(url, leased, [name]))[0]?.claimed_until ?? 0) === 0)
              await new Promise((resolve) => setTimeout(resolve, 50));
          })(),
          PHONE_STEP_MS + 5_000,
          'the step claimed',
        );
        await first.kill9();
        // The claimer is gone and the step did not run: its row is still there, leased.
        expect(await query(url, 'SELECT count(*)::int AS n FROM timers WHERE name = $1', [name])).toEqual([{ n: 1 }]);
      } finally {
        await holder.end();
      }
      const reader = new SseReader({ baseUrl: second.baseUrl, conversationId: call.id, token: call.channel.token });
      try {
        await within(reader.done, TAKEOVER_WAIT_MS, 'the call ending on the other instance');
      } finally {
        reader.close();
      }
      expect(reader.events.map((event) => event.payload.type)).toEqual(['conversation.setup', 'conversation.ended']);
      expect((await clientOf(second).conversations.retrieve(call.id)).status).toBe('busy');
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const logged = 'SELECT count(*)::int AS n FROM event_log WHERE conversation_id = $1';
      expect(await query(url, logged, [call.id])).toEqual([{ n: 2 }]);
      expect(await query(url, 'SELECT count(*)::int AS n FROM timers WHERE name = $1', [name])).toEqual([{ n: 0 }]);
    },
    PROCESS_MS,
  );
});
