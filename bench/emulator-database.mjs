// Benchmark: emulator throughput on `GET /conversations/{conversation_id}` by where the state lives: `casi serve`
// on `memory:`, on the embedded database (PGlite) and on PostgreSQL (a throwaway cluster), against bare Fastify
// answering the same JSON, with autocannon over loopback, round-robin. Needs `npm run build` and PostgreSQL's
// binaries. Usage: node bench/emulator-database.mjs [runs=3] [seconds=5]
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuMsOf, registerTypeScript, resultRow, startChild, stats, writeSection } from './lib.mjs';

const runs = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const CONNECTIONS = 10;
await registerTypeScript();
const { startPostgresCluster } = await import('../test/database/postgres-cluster.ts');
const { startServe } = await import('../test/database/serve-process.ts');
const { agentConfig } = await import('../test/e2e/fixtures.ts');

const headersOf = (key) => ({ authorization: `Bearer ${key}`, 'service-version': '2025-06-19' });

/** POSTs or GETs with the server's key; the JSON answer, or an error on a non-2xx answer. */
async function call(server, method, path, body) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...headersOf(server.apiKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function load(url, headers, duration) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers, timeout: 10 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

const folders = [];
const folder = () => {
  const created = realpathSync(mkdtempSync(join(tmpdir(), 'casi-bench-db-')));
  folders.push(created);
  return created;
};
const children = [];
const cluster = await startPostgresCluster();
try {
  const serve = async (url) => {
    const server = await startServe(folder(), { CASI_DATABASE_URL: url });
    children.push({ close: () => server.kill9() });
    return server;
  };
  const embeddedFolder = folder();
  const servers = {
    memory: await serve('memory:'),
    embedded: await serve(`file:${join(embeddedFolder, 'state')}`),
    postgres: await serve(cluster.url),
  };
  const targets = {};
  const pids = {};
  let body;
  for (const [name, server] of Object.entries(servers)) {
    const agent = await call(server, 'POST', '/conversational_agents', { name: 'Bench', config: agentConfig() });
    const created = await call(server, 'POST', '/conversations', {
      agent_id: agent.version_id,
      channel: { type: 'chat_async' },
    });
    body ??= await call(server, 'GET', `/conversations/${created.id}`);
    targets[name] = { url: `${server.baseUrl}/conversations/${created.id}`, headers: headersOf(server.apiKey) };
    pids[name] = server.child.pid;
  }
  const fastify = await startChild('bench/fastify-server.mjs', [], { env: { BODY: JSON.stringify(body) } });
  children.push(fastify);
  targets.fastify = { url: `http://127.0.0.1:${fastify.ready.port}/conversations/x`, headers: {} };
  pids.fastify = fastify.child.pid;

  const rps = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (const { url, headers } of Object.values(targets)) await load(url, headers, 1);
  for (let run = 0; run < runs; run++) {
    for (const [name, { url, headers }] of Object.entries(targets)) {
      const before = cpuMsOf(pids[name]);
      const result = await load(url, headers, seconds);
      cpu[name].push(((cpuMsOf(pids[name]) - before) * 1000) / result.requests.total);
      rps[name].push(result.requests.average);
      console.log(`${name}: ${result.requests.average.toFixed(0)} req/s`);
    }
  }
  const ratio = (name) => stats(rps[name]).median / stats(rps.fastify).median;
  const cpuText = (name) => `${stats(cpu[name]).median.toFixed(0)} µs`;
  writeSection('emulator-database', {
    title: 'Emulator throughput by where the state lives',
    note: [
      `autocannon, ${CONNECTIONS} connections, ${runs} runs × ${seconds} s per server, round-robin after a 1 s warm-up,`,
      'on `GET /conversations/{conversation_id}`; every answer must be 2xx. `casi serve` (compiled, as users run it)',
      'on `memory:`, on the embedded database and on PostgreSQL (a throwaway cluster on the same machine, `pg` pool',
      'of 10); bare Fastify answers the same JSON without validation. Each server is a child process; autocannon and',
      'PostgreSQL share the same 2 cores. Server CPU per request (median):',
      `${cpuText('memory')} memory, ${cpuText('embedded')} embedded, ${cpuText('postgres')} PostgreSQL,`,
      `${cpuText('fastify')} bare Fastify. Ratio: requests per second over bare Fastify's.`,
    ].join(' '),
    goal: 'embedded ≥ 0.5×, PostgreSQL ≥ 0.3× bare Fastify',
    command: `npm run build && node bench/emulator-database.mjs ${runs} ${seconds}`,
    rows: [
      resultRow('bare Fastify (no validation)', rps.fastify, 'req/s', 1),
      resultRow('`casi serve`, `memory:`', rps.memory, 'req/s', ratio('memory')),
      resultRow('`casi serve`, embedded (PGlite)', rps.embedded, 'req/s', ratio('embedded')),
      resultRow('`casi serve`, PostgreSQL', rps.postgres, 'req/s', ratio('postgres')),
    ],
  });
} finally {
  for (const child of children) await child.close();
  await cluster.stop();
  for (const created of folders) rmSync(created, { recursive: true, force: true });
}
