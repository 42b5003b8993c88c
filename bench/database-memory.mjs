// Benchmark: the RSS of `casi serve` while events flow, on the embedded database (PGlite) and on PostgreSQL (a
// throwaway cluster). `conversations` chats over WebSocket sessions, each sending `user.message.send` frames of
// 30 words one after another (each frame logs about 33 events: the message, 30 deltas, the reply), until `events`
// events were logged or `minutes` have passed per database. The server's RSS (/proc/<pid>/status, no forced
// collection) is read after 10 000 events, then every 100 000 and at the end, in a server started on a database
// created by an earlier one. Needs `npm run build` and PostgreSQL's binaries. A fourth argument `embedded` or
// `postgres` runs on that database alone, printed and not recorded.
// Usage: node bench/database-memory.mjs [events=1000000] [minutes=15] [conversations=50] [embedded|postgres]
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { registerTypeScript, writeSection } from './lib.mjs';

const [events = 1_000_000, minutes = 15, conversations = 50] = process.argv.slice(2, 5).map(Number);
/** `embedded` or `postgres`: that database alone, printed only. */
const only = process.argv[5];
const FIRST_SAMPLE = 10_000;
const SAMPLE_EVERY = 100_000;
const TEXT = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
await registerTypeScript();
const { startPostgresCluster } = await import('../test/database/postgres-cluster.ts');
const { startServe } = await import('../test/database/serve-process.ts');
const { agentConfig } = await import('../test/e2e/fixtures.ts');

/** The resident set size of process `pid`, in MB. */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) / 1024;
}

async function call(server, path, body) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.apiKey}`,
      'service-version': '2025-06-19',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Runs the chats against `server` until `events` events were received or `deadline`; calls `onEvents(total)` after
 * each reply. Each session sends its next frame when the reply to the previous one is complete.
 */
async function flow(server, onEvents, deadline) {
  const agent = await call(server, '/conversational_agents', { name: 'Bench', config: agentConfig() });
  let total = 0;
  let stop = false;
  const chat = async () => {
    const created = await call(server, '/conversations', {
      agent_id: agent.version_id,
      channel: { type: 'chat_realtime' },
    });
    const base = server.baseUrl.replace(/^http/, 'ws');
    const socket = new WebSocket(`${base}/conversations/${created.id}/session?token=${created.channel.token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const send = () => socket.send(JSON.stringify({ payload: { type: 'user.message.send', text: TEXT } }));
    await new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', resolve);
      socket.on('message', (data) => {
        total++;
        if (JSON.parse(String(data)).payload.type !== 'agent.message.completed') return;
        onEvents(total);
        stop ||= total >= events || Date.now() > deadline;
        if (stop) socket.close();
        else send();
      });
      send();
    });
  };
  await Promise.all(Array.from({ length: conversations }, chat));
  return total;
}

/**
 * One database: created and migrated by a first server, then a second one started on it (so that creating the
 * database is not counted), the flow, and its RSS samples `{ events, rss }`.
 */
async function measure(url, cwd) {
  await (await startServe(cwd, { CASI_DATABASE_URL: url })).kill9();
  const server = await startServe(cwd, { CASI_DATABASE_URL: url });
  const pid = server.child.pid;
  const samples = [];
  let next = FIRST_SAMPLE;
  const started = Date.now();
  try {
    const total = await flow(
      server,
      (count) => {
        if (count < next) return;
        samples.push({ events: count, rss: rssMb(pid) });
        console.log(
          `${count} events: ${samples.at(-1).rss.toFixed(0)} MB RSS, ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
        next = next === FIRST_SAMPLE ? SAMPLE_EVERY : next + SAMPLE_EVERY;
      },
      started + minutes * 60_000,
    );
    samples.push({ events: total, rss: rssMb(pid) });
    return { samples, total, seconds: (Date.now() - started) / 1000 };
  } finally {
    await server.kill9();
  }
}

/** RSS growth per 100 000 events from the first sample at or past 100 000 to the last (least squares). */
function slope(samples) {
  const points = samples.filter((s) => s.events >= SAMPLE_EVERY);
  if (points.length < 2) return Number.NaN;
  const mean = (f) => points.reduce((sum, p) => sum + f(p), 0) / points.length;
  const mx = mean((p) => p.events);
  const my = mean((p) => p.rss);
  const num = points.reduce((sum, p) => sum + (p.events - mx) * (p.rss - my), 0);
  const den = points.reduce((sum, p) => sum + (p.events - mx) ** 2, 0);
  return (num / den) * SAMPLE_EVERY;
}

const folders = [];
const folder = () => {
  const created = realpathSync(mkdtempSync(join(tmpdir(), 'casi-bench-rss-')));
  folders.push(created);
  return created;
};
const cluster = await startPostgresCluster();
try {
  const embeddedCwd = folder();
  const results = {
    embedded: only === 'postgres' ? undefined : await measure(`file:${join(embeddedCwd, 'state')}`, embeddedCwd),
    postgres: only === 'embedded' ? undefined : await measure(cluster.url, folder()),
  };
  const row = (tool, { samples, total, seconds }) => {
    const first = samples[0];
    const last = samples.at(-1);
    const perHundredK = slope(samples);
    return {
      tool,
      median: `${last.rss.toFixed(0)} MB RSS after ${total.toLocaleString('en')} events`,
      range: `${first.rss.toFixed(0)} MB after ${first.events.toLocaleString('en')}; ${Number.isNaN(perHundredK) ? 'no slope' : `${perHundredK.toFixed(1)} MB per 100 k events`}; ${(total / seconds).toFixed(0)} events/s`,
      ratio: `${(last.rss / first.rss).toFixed(2)}×`,
    };
  };
  for (const [name, result] of Object.entries(results)) console.log(name, JSON.stringify(result?.samples));
  if (only === undefined)
    writeSection('database-memory', {
      title: 'RSS of `casi serve` while events flow, by database',
      note: [
        `\`casi serve\` (compiled) as a child process; ${conversations} \`chat_realtime\` conversations, each a WebSocket`,
        'session sending a 30-word `user.message.send` when the reply to the previous one is complete (about 33 events',
        `logged per frame), until ${events.toLocaleString('en')} events or ${minutes} minutes per database.`,
        'RSS from /proc (no forced collection), read after the first 10 000 events and at the end; the slope is a',
        'least-squares fit of the samples taken every 100 000 events. Memory keeps the defaults with a database',
        '(1 000 events per conversation, 10 000 in all); the database keeps every event. PostgreSQL is a throwaway',
        'cluster on the same 2 cores. Ratio: RSS at the end over RSS after 10 000 events.',
      ].join(' '),
      goal: 'RSS after 1 M events ≤ 1.2× RSS after 10 k events, in the database modes',
      command: `npm run build && node bench/database-memory.mjs ${events} ${minutes} ${conversations}`,
      rows: [
        row('`casi serve`, embedded (PGlite)', results.embedded),
        row('`casi serve`, PostgreSQL', results.postgres),
      ],
    });
} finally {
  await cluster.stop();
  for (const created of folders) rmSync(created, { recursive: true, force: true });
}
