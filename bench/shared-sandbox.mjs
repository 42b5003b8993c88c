// Benchmark: the shared-sandbox scenario at full size (test/database/shared-sandbox.ts): two `casi serve`
// instances on one throwaway PostgreSQL cluster, 50 chat sessions and 200 SSE subscribers spread over both, 30 s of
// traffic, the first instance killed (kill -9) halfway and its clients moved to the second. Peer, in the same run:
// one `casi serve` on `memory:` under the same clients and traffic, no kill. Needs `npm run build` and PostgreSQL's
// binaries (as the database tests). Usage: node bench/shared-sandbox.mjs [seconds=30] [sessions=50] [subscribers=4]
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerTypeScript, writeSection } from './lib.mjs';

const [seconds = 30, sessions = 50, perConversation = 4] = process.argv.slice(2).map(Number);
await registerTypeScript();
const { createClient } = await import('../generated/src/client.gen.ts');
const { createScenarioAgents } = await import('../test/e2e/fixtures.ts');
const { startPostgresCluster } = await import('../test/database/postgres-cluster.ts');
const { startServe } = await import('../test/database/serve-process.ts');
const { runSharedSandbox } = await import('../test/database/shared-sandbox.ts');

const load = { sessions, subscribersPerConversation: perConversation, trafficMs: seconds * 1000 };
const folders = [];
const folder = () => {
  const created = realpathSync(mkdtempSync(join(tmpdir(), 'casi-bench-sandbox-')));
  folders.push(created);
  return created;
};
const clientOf = (server) => createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0 });

/** Runs the scenario on `servers` (two, or one serving as both); kills the first halfway when `kill`. */
async function scenario(servers, kill) {
  const clients = [clientOf(servers[0]), clientOf(servers[1] ?? servers[0])];
  const agents = await createScenarioAgents(clients[0]);
  return runSharedSandbox(
    {
      clients,
      baseUrls: [servers[0].baseUrl, (servers[1] ?? servers[0]).baseUrl],
      ...(kill ? { killFirst: () => servers[0].kill9() } : {}),
    },
    agents.agentId,
    load,
  );
}

const servers = [];
const cluster = await startPostgresCluster();
let shared;
let memory;
try {
  const env = { CASI_DATABASE_URL: cluster.url };
  const pair = await Promise.all([startServe(folder(), env), startServe(folder(), env)]);
  servers.push(...pair);
  shared = await scenario(pair, true);
  const single = await startServe(folder(), { CASI_DATABASE_URL: 'memory:' });
  servers.push(single);
  memory = await scenario([single], false);
} finally {
  for (const server of servers) await server.kill9();
  await cluster.stop();
  for (const created of folders) rmSync(created, { recursive: true, force: true });
}

console.log(JSON.stringify({ shared, memory }, null, 2));
const perSecond = (figures, value) => (value / figures.elapsedMs) * 1000;
const row = (tool, figures) => ({
  tool,
  median: `${perSecond(figures, figures.messages).toFixed(1)} messages/s; ${perSecond(figures, figures.deliveredEvents).toFixed(0)} deliveries/s`,
  range: `${figures.messages} messages, ${figures.loggedEvents} events logged, ${figures.deliveredEvents} delivered; ${figures.movedClients} clients moved; lost ${figures.lost}, duplicated ${figures.duplicated}, out of order ${figures.misordered}`,
  ratio: `${(figures.messages / figures.elapsedMs / (memory.messages / memory.elapsedMs)).toFixed(2)}×`,
});
writeSection('shared-sandbox', {
  title: 'Shared sandbox: two instances on one PostgreSQL, one killed',
  note: `${sessions} chat sessions (one message at a time, each awaiting its answer) and ${sessions * perConversation} SSE subscribers, spread over two \`casi serve\` instances on one PostgreSQL; ${seconds} s of traffic, the first instance killed with kill -9 halfway and its clients resumed on the second after the last event they got. Every client's events are compared with the conversation's log. Peer: one \`casi serve\` on \`memory:\` with the same clients and traffic, no kill. The "min–max" column holds the run's counts; the ratio is messages per second against the peer.`,
  rows: [row('two instances on PostgreSQL, one killed halfway', shared), row('one instance, `memory:` (peer)', memory)],
  command: `npm run build && node bench/shared-sandbox.mjs ${seconds} ${sessions} ${perConversation}`,
  goal: '0 lost, 0 duplicated, one order',
});
