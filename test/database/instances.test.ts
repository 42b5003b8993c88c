/**
 * Several `casi serve` instances on one PostgreSQL (a throwaway cluster), clients picking an instance each: both
 * come up when started at once on an empty database; what one acknowledged the other reads next; a token refreshed
 * on one is refused on the other and ends the streams it opened there; a call's timers fire once; SSE subscribers
 * and sessions spread over both get one order with the same ids, and when one instance is killed (`kill -9`) its
 * clients resume on the other: 0 lost, 0 duplicated. The full-size run (30 s of traffic) is bench/shared-sandbox.mjs.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../generated/src/client.gen.js';
import { MIGRATIONS } from '../../reference/database/migrations.js';
import { PHONE_STEP_MS } from '../../reference/phone.js';
import { PROCEDURE_STEP_MS } from '../../reference/procedures.js';
import { createScenarioAgents, type ScenarioAgents } from '../e2e/fixtures.js';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster.js';
import { RawSession, SseReader } from './raw-clients.js';
import { PROCESS_MS, type ServeProcess, startServe } from './serve-process.js';
import { runSharedSandbox } from './shared-sandbox.js';
import { within } from './within.js';

let cluster: PostgresCluster | undefined;
let url = '';
const folders: string[] = [];
let servers: [ServeProcess, ServeProcess];
let clients: [Client, Client];
let agents: ScenarioAgents;

const clientOf = (server: ServeProcess): Client =>
  createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0, timeoutMs: 10_000 });

/** Runs `sql` on the test database. */
async function query<R extends object>(sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R & pg.QueryResultRow>(sql)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = cluster.url;
  await query('CREATE DATABASE sandbox');
  url = cluster.url.replace(/\/postgres$/, '/sandbox');
  // Both started at once on the empty database: the migrations and the development key are shared.
  const cwd = () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'casi-instance-')));
    folders.push(folder);
    return folder;
  };
  const env = { CASI_DATABASE_URL: url };
  const started = await Promise.allSettled([startServe(cwd(), env), startServe(cwd(), env)]);
  const up = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (up.length < 2) {
    for (const server of up) await server.kill9();
    throw started.find((result) => result.status === 'rejected')?.reason;
  }
  servers = [up[0] as ServeProcess, up[1] as ServeProcess];
  clients = [clientOf(servers[0]), clientOf(servers[1])];
  agents = await createScenarioAgents(clients[0]);
}, PROCESS_MS * 2);

const later: ServeProcess[] = [];

afterAll(async () => {
  for (const server of [...(servers ?? []), ...later]) await server.kill9();
  await cluster?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}, PROCESS_MS);

describe('two instances on one PostgreSQL', () => {
  it('both come up when started at once on an empty database, migrated once, with one development key', async () => {
    expect(servers[0].apiKey).toMatch(/^casi_dev_/);
    expect(servers[1].apiKey).toBe(servers[0].apiKey);
    const applied = await query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(applied.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    // What one instance wrote, the other reads.
    expect((await clients[1].conversationalAgents.retrieve(agents.agentId)).id).toBe(agents.agentId);
  });

  it('a token refreshed on one instance is refused at once on the other and ends the streams it opened there', async () => {
    const created = await clients[0].conversations.create({
      agent_id: agents.agentId,
      channel: { type: 'chat_realtime' },
    });
    const target = { baseUrl: servers[1].baseUrl, conversationId: created.id, token: created.channel.token };
    const stream = new SseReader(target);
    const session = new RawSession(target);
    await session.open;
    await within(
      (async () => {
        while (stream.events.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      5_000,
      'the first event on the other instance',
    );
    const refreshed = await clients[0].conversations.refreshToken(created.id);
    expect(await within(session.closed, 5_000, 'the session closing')).toBe(1008);
    await within(stream.done, 5_000, 'the stream ending');
    const old = await fetch(`${target.baseUrl}/conversations/${created.id}/events?token=${created.channel.token}`);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { code: string }).code).toBe('token_expired');
    const fresh = new SseReader({ ...target, token: refreshed.token });
    await within(
      (async () => {
        while (fresh.events.length === 0 && fresh.status !== 401) await new Promise((r) => setTimeout(r, 10));
      })(),
      5_000,
      'the new token on the other instance',
    );
    fresh.close();
    expect(fresh.events[0]?.payload.type).toBe('conversation.setup');
  });

  it('what one instance acknowledged, the other reads next, though it had read the record before', async () => {
    for (const description of ['first', 'second', 'third']) {
      await clients[0].conversationalAgents.update(agents.agentId, { description });
      expect((await clients[1].conversationalAgents.retrieve(agents.agentId)).description).toBe(description);
    }
    const created = await clients[0].conversations.create({
      agent_id: agents.agentId,
      channel: { type: 'chat_realtime' },
    });
    const status = async () => (await clients[1].conversations.retrieve(created.id)).status;
    expect(await status()).toBe('queued');
    // Each status change is acknowledged by its event on the first instance's session.
    const session = new RawSession({
      baseUrl: servers[0].baseUrl,
      conversationId: created.id,
      token: created.channel.token,
    });
    await session.open;
    const started = session.next('conversation.started');
    session.send({ type: 'conversation.start' });
    await within(started, 5_000, 'the start');
    expect(await status()).toBe('in-progress');
    const ended = session.next('conversation.ended');
    session.send({ type: 'conversation.end' });
    await within(ended, 5_000, 'the end');
    expect(await status()).toBe('completed');
  });

  it("a call's timers fire once with two instances: one end, one procedure run, seen alike on both", async () => {
    // A busy number: the call ends after one step; the procedure then runs in two steps.
    const created = await clients[0].conversations.create({
      agent_id: agents.agentId,
      channel: { type: 'phone', callee_no: '+15005550001' },
    });
    const readers = servers.map(
      (server) => new SseReader({ baseUrl: server.baseUrl, conversationId: created.id, token: created.channel.token }),
    );
    for (const reader of readers) await within(reader.done, PHONE_STEP_MS + 5_000, 'the call ending');
    const [first, second] = readers.map((reader) => reader.events);
    expect(first?.map((event) => event.payload.type)).toEqual(['conversation.setup', 'conversation.ended']);
    expect(second).toEqual(first);
    const procedures = async () => await clients[1].procedures.list({ conversation_id: created.id }).firstPage();
    await within(
      (async () => {
        while ((await clients[1].conversations.retrieve(created.id)).custom_fields.processed_by === undefined)
          await new Promise((resolve) => setTimeout(resolve, 100));
      })(),
      PROCEDURE_STEP_MS * 2 + 5_000,
      'the procedure finishing',
    );
    const runs = (await procedures()).page;
    expect(runs.map((run) => [run.agent_id, run.status])).toEqual([[agents.proceduralId, 'success']]);
    // Two more steps' time: nothing fires a second time.
    await new Promise((resolve) => setTimeout(resolve, PROCEDURE_STEP_MS * 2));
    expect((await procedures()).page).toHaveLength(1);
    const log = await query<{ n: string }>(
      `SELECT count(*) AS n FROM event_log WHERE conversation_id = '${created.id}'`,
    );
    expect(log).toEqual([{ n: '2' }]);
  });

  it('sessions and SSE subscribers over both, one instance killed and its clients moved: 0 lost, 0 duplicated, one order', async () => {
    const figures = await runSharedSandbox(
      {
        clients,
        baseUrls: [servers[0].baseUrl, servers[1].baseUrl],
        killFirst: () => servers[0].kill9(),
      },
      agents.agentId,
      { sessions: 50, subscribersPerConversation: 4, trafficMs: 2_000 },
    );
    expect(figures).toMatchObject({ sessions: 50, subscribers: 200, lost: 0, duplicated: 0, misordered: 0 });
    // Traffic flowed: more than each conversation's setup, start and end were logged.
    expect(figures.messages).toBeGreaterThan(0);
    expect(figures.loggedEvents).toBeGreaterThan(3 * 50);
    expect(figures.crossInstanceClients).toBe(100);
    expect(figures.movedClients).toBe(125);
  }, 30_000);

  it("a call's timer set by a killed instance fires once after a restart, in the instance that took it up", async () => {
    const created = await clients[1].conversations.create({
      agent_id: agents.agentId,
      channel: { type: 'phone', callee_no: '+15005550001' },
    });
    const row = `SELECT count(*)::int AS n FROM timers WHERE name = '${created.id}/phone-dial'`;
    await within(
      (async () => {
        while ((await query<{ n: number }>(row))[0]?.n !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
      5_000,
      'the timer row',
    );
    await servers[1].kill9();
    const restarted = await startServe(folders[1] ?? '', { CASI_DATABASE_URL: url });
    later.push(restarted);
    const reader = new SseReader({
      baseUrl: restarted.baseUrl,
      conversationId: created.id,
      token: created.channel.token,
    });
    await within(reader.done, PHONE_STEP_MS + 5_000, 'the call ending after the restart');
    expect(reader.events.map((event) => event.payload.type)).toEqual(['conversation.setup', 'conversation.ended']);
    expect((await clientOf(restarted).conversations.retrieve(created.id)).status).toBe('busy');
    expect(await query(row)).toEqual([{ n: 0 }]);
  }, 30_000);
});
