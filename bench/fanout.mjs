// Benchmark: SSE fan-out on the reference server: one conversation, many subscribers (the generated client's
// `conversations.events`), events published by `POST /conversations/{id}/context` (one
// `conversation.context.updated` each, carrying its sequence number). Two runs: publishers unpaced (the most
// events per second delivered to every subscriber), then paced at three quarters, half and a quarter of that rate
// (delivery latency as load falls). Each checks
// that every subscriber gets every event exactly once, all in the same order. Processes: the server, the
// subscribers (this script again, forked with `--subscribers`: one process per core, each with its share) and the
// publishers (this process), so that the publishers' pacing and the subscribers' work do not wait for each other in
// one event loop.
// Usage: node bench/fanout.mjs [subscribers] [events] [rate events/s; default: unpaced, then 3/4, 1/2 and 1/4 of its rate]
// BENCH_SUBSCRIBER_PROCESSES=<n> sets how many subscriber processes share the subscribers (default: one per core).
import { fork } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleForNode, cpuMsOf, ROOT, registerTypeScript, writeSection } from './lib.mjs';
import { call, createConversation, startConversation, startReference } from './reference-setup.mjs';

/** One run is abandoned after this long (its subscribers are aborted and what they missed counts as lost). */
const DEADLINE_MS = 600_000;
/** Subscribers must all be connected (have received the conversation's first event) within this. */
const CONNECT_MS = 60_000;
/** Concurrent publishers (the server orders their events under the conversation's lock). */
const PUBLISHERS = 4;

/** Subscriber processes: one per core by default, each with its share of the subscribers and its own event loop. */
const SUBSCRIBER_PROCESSES = Number(process.env.BENCH_SUBSCRIBER_PROCESSES ?? availableParallelism());

/** Percentile `p` (0–1) of a sample given as `[value, count]` pairs: the value at rank ⌊p·n⌋ in sorted order. */
function percentile(counts, p) {
  const sorted = [...counts].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  const rank = Math.min(total - 1, Math.floor(p * total));
  let seen = 0;
  for (const [value, n] of sorted) {
    seen += n;
    if (seen > rank) return value;
  }
  return undefined;
}
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
/** CPU milliseconds (user + system) this process has used. */
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

if (process.argv[2] === '--subscribers') await subscriberProcess();
else await main();

/**
 * A subscriber process: told `{ clientBundle, baseUrl, id, subscribers, eventCount }`, opens its streams, says
 * `connected` once each has its first event, and answers `{ received, duplicates, orders, latencies, cpuMs }` when
 * every stream has every event (or on `abort`): `orders` the distinct order hashes, `latencies` `[ms, count]` pairs
 * (latency is whole milliseconds), `cpuMs` its CPU time from `connected` on.
 */
async function subscriberProcess() {
  const job = await new Promise((resolve) => process.once('message', resolve));
  const { subscribers, eventCount } = job;
  const { createClient } = await import(job.clientBundle);
  const client = createClient({ baseUrl: job.baseUrl, apiKey: 'sk_bench' });
  const abort = new AbortController();
  setMaxListeners(subscribers + 10, abort.signal);
  process.on('message', (message) => message === 'abort' && abort.abort());
  const latencies = new Float64Array(subscribers * eventCount).fill(Number.NaN);
  let connected = 0;
  let cpuAtStart = 0;
  const runs = Array.from({ length: subscribers }, (_, i) =>
    subscribe(client, job.id, abort.signal, latencies, i * eventCount, eventCount, () => {
      if (++connected < subscribers) return;
      cpuAtStart = ownCpuMs();
      process.send('connected');
    }),
  );
  const outcomes = await Promise.all(runs);
  const cpuMs = ownCpuMs() - cpuAtStart;
  const counts = new Map();
  for (const ms of latencies) if (!Number.isNaN(ms)) counts.set(ms, (counts.get(ms) ?? 0) + 1);
  process.send({
    received: outcomes.reduce((sum, o) => sum + o.received, 0),
    duplicates: outcomes.reduce((sum, o) => sum + o.duplicates, 0),
    orders: [...new Set(outcomes.map((o) => o.order))],
    latencies: [...counts],
    cpuMs,
  });
  process.disconnect();
}

/**
 * One subscriber: reads the stream until it has seen every sequence number, recording each latency (receipt
 * minus `created_at`) in `latencies` at `offset + seq`; resolves to `{ received, duplicates, order }` where `order`
 * hashes the order of the sequence numbers. `connected` is called at the first event (the conversation's history).
 */
async function subscribe(client, id, signal, latencies, offset, eventCount, connected) {
  const seen = new Uint8Array(eventCount);
  let received = 0;
  let duplicates = 0;
  let order = 0;
  let first = true;
  try {
    for await (const event of client.conversations.events(id, { signal })) {
      if (first) {
        first = false;
        connected();
      }
      if (event.payload.type !== 'conversation.context.updated') continue;
      const seq = Number(event.payload.data.seq);
      latencies[offset + seq] = Date.now() - Date.parse(event.created_at);
      if (seen[seq]) duplicates++;
      else received++;
      seen[seq] = 1;
      order = (Math.imul(order, 31) + seq) | 0;
      if (received === eventCount) break;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  return { received, duplicates, order };
}

/**
 * Forks a subscriber process: `send(job)`, `next(ms)` (its next message, or undefined after `ms` or once it has
 * exited), `abort()` and `exited`.
 */
function subscriberChild() {
  const child = fork(fileURLToPath(import.meta.url), ['--subscribers'], { stdio: 'inherit' });
  const messages = [];
  let wake = () => undefined;
  child.on('message', (message) => {
    messages.push(message);
    wake();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    exited,
    send: (job) => child.send(job),
    abort: () => {
      if (child.connected) child.send('abort', () => undefined);
    },
    next(ms) {
      if (messages.length > 0) return Promise.resolve(messages.shift());
      let timer;
      const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
      return Promise.race([new Promise((resolve) => (wake = resolve)), timeout, exited]).then(() => {
        clearTimeout(timer);
        return messages.shift();
      });
    },
  };
}

/** The publisher process: both runs, then the RESULTS.md section. */
async function main() {
  const subscribers = Number(process.argv[2] ?? 500);
  const eventCount = Number(process.argv[3] ?? 10_000);
  const fixedRate = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
  await registerTypeScript();
  const { loadFixtures } = await import('./fixtures.ts');
  const { cases } = await loadFixtures(ROOT);
  const agentConfig = cases.find((c) => c.schema === 'ConversationalAgentConfig')?.valid[0];
  const clientBundle = await bundleForNode('generated/src/client.gen.ts', { external: ['ws'] });

  /** One run on a fresh server and conversation; `rate` 0 publishes back to back. Resolves to its summary. */
  async function fanOut(rate) {
    const server = await startReference({ validateResponses: false, env: { CASI_CHAT_ASYNC_IDLE_SECONDS: '86400' } });
    const shares = Array.from(
      { length: SUBSCRIBER_PROCESSES },
      (_, i) =>
        Math.floor((subscribers * (i + 1)) / SUBSCRIBER_PROCESSES) -
        Math.floor((subscribers * i) / SUBSCRIBER_PROCESSES),
    ).filter((share) => share > 0);
    const children = shares.map(() => subscriberChild());
    let stopped = false;
    const abortAll = () => {
      for (const child of children) child.abort();
    };
    const deadline = setTimeout(() => {
      stopped = true;
      abortAll();
    }, DEADLINE_MS);
    try {
      const id = await createConversation(server.baseUrl, agentConfig);
      // Started: context injected into a queued conversation waits for `conversation.started`.
      await startConversation(server.baseUrl, id);
      for (const [i, share] of shares.entries()) {
        children[i].send({ clientBundle, baseUrl: server.baseUrl, id, subscribers: share, eventCount });
      }
      for (const child of children) {
        if ((await child.next(CONNECT_MS)) !== 'connected') {
          throw new Error(`the ${subscribers} subscribers were not connected within ${CONNECT_MS} ms`);
        }
      }

      const start = performance.now();
      const cpuAtStart = { server: cpuMsOf(server.pid), publishers: ownCpuMs() };
      let nextSeq = 0;
      /** One publisher: takes the next sequence number (at its due time when paced) until all are sent. */
      const publish = async () => {
        while (nextSeq < eventCount && !stopped) {
          const seq = nextSeq++;
          const wait = rate > 0 ? start + (seq * 1000) / rate - performance.now() : 0;
          if (wait > 0) await sleep(wait);
          await call(server.baseUrl, 'POST', `/conversations/${id}/context`, { data: { seq: String(seq) } });
        }
      };
      await Promise.all(Array.from({ length: PUBLISHERS }, publish));
      const published = performance.now();
      const outcomes = [];
      for (const child of children) {
        const summary = await child.next(DEADLINE_MS);
        if (summary === undefined) throw new Error('a subscriber process ended without a summary');
        outcomes.push(summary);
      }
      const sum = (key) => outcomes.reduce((total, o) => total + o[key], 0);
      const latencies = outcomes.flatMap((o) => o.latencies);
      const outcome = {
        received: sum('received'),
        duplicates: sum('duplicates'),
        orders: new Set(outcomes.flatMap((o) => o.orders)).size,
        cpuMs: sum('cpuMs'),
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: Math.max(...latencies.map(([ms]) => ms)),
      };
      const seconds = (performance.now() - start) / 1000;
      const perDelivery = (ms) => (ms * 1000) / Math.max(1, outcome.received);
      const summary = {
        rate,
        seconds,
        publishSeconds: (published - start) / 1000,
        eventsPerSecond: eventCount / seconds,
        deliveriesPerSecond: outcome.received / seconds,
        p50: outcome.p50,
        p99: outcome.p99,
        max: outcome.max,
        lost: subscribers * eventCount - outcome.received,
        duplicates: outcome.duplicates,
        orders: outcome.orders,
        timedOut: stopped,
        cpuSeconds: {
          server: (cpuMsOf(server.pid) - cpuAtStart.server) / 1000,
          subscribers: outcome.cpuMs / 1000,
          publishers: (ownCpuMs() - cpuAtStart.publishers) / 1000,
        },
        cpuPerDelivery: {
          server: perDelivery(cpuMsOf(server.pid) - cpuAtStart.server),
          subscribers: perDelivery(outcome.cpuMs),
        },
      };
      console.log(summary);
      return summary;
    } finally {
      clearTimeout(deadline);
      abortAll();
      await Promise.all(children.map((child) => child.exited));
      await server.close();
    }
  }

  const results = [];
  if (fixedRate === undefined) {
    const unpaced = await fanOut(0);
    results.push(unpaced);
    for (const share of [3 / 4, 1 / 2, 1 / 4])
      results.push(await fanOut(Math.max(1, Math.floor(unpaced.eventsPerSecond * share))));
  } else {
    results.push(await fanOut(fixedRate));
  }

  const ok = (met) => (met ? 'met' : 'missed');
  const label = (r) => (r.rate > 0 ? `paced at ${r.rate} events/s` : 'unpaced');
  const rows = results.flatMap((r) => [
    {
      tool: `${label(r)}: delivery latency p50 / p99`,
      median: `${r.p50} ms / ${r.p99} ms`,
      range: `max ${r.max} ms`,
      ratio: `p99 ${(r.p99 / 50).toFixed(2)}× the 50 ms goal (${ok(r.p99 <= 50)})`,
    },
    {
      tool: `${label(r)}: events/s delivered to every subscriber`,
      median: `${r.eventsPerSecond.toFixed(0)} events/s`,
      range: `${r.deliveriesPerSecond.toFixed(0)} deliveries/s, ${r.seconds.toFixed(0)} s`,
      ratio: `lost ${r.lost}, duplicated ${r.duplicates}, ${r.orders} order(s)${r.timedOut ? ', TIMED OUT' : ''}`,
    },
    {
      tool: `${label(r)}: CPU per delivery, server / subscribers`,
      median: `${r.cpuPerDelivery.server.toFixed(1)} µs / ${r.cpuPerDelivery.subscribers.toFixed(1)} µs`,
      range: `CPU s: server ${r.cpuSeconds.server.toFixed(1)}, subscribers ${r.cpuSeconds.subscribers.toFixed(1)}, publishers ${r.cpuSeconds.publishers.toFixed(1)}`,
      ratio: `subscribers ${(r.cpuPerDelivery.subscribers / r.cpuPerDelivery.server).toFixed(1)}× the server`,
    },
  ]);
  writeSection('fanout', {
    title: `SSE fan-out (${subscribers} subscribers, ${eventCount} events)`,
    note: [
      'One `chat_async` conversation on the reference server (bundled; `casi serve` defaults, so responses and events',
      `are not validated by the server) in a child process; ${subscribers} subscribers spread over ${SUBSCRIBER_PROCESSES}`,
      'other child processes (one per core, each with its own event loop, as subscribers in real use each have theirs), each subscriber',
      "the generated client's `conversations.events(id)` (no `fetch` option, so its Node transport: node:http,",
      'eventsource-parser, JSON, `validateServerEvent` on every event, the ledger of delivered ids).',
      `${PUBLISHERS} publishers in this process POST \`/conversations/{id}/context\` ${eventCount} times,`,
      'each emitting one `conversation.context.updated` with a sequence number: first back to back (throughput), then,',
      'on fresh servers, paced at three quarters, half and a quarter of the rate reached (latency as load falls; at',
      'three quarters both processes are close to saturation). The publishers have their own process',
      "so that their pacing does not wait behind the subscribers' work. Latency: receipt `Date.now()` minus the event's",
      '`created_at` (same machine clock, 1 ms resolution); it includes the wait of each event in its subscriber',
      "process's event loop, behind the other subscribers' deliveries there. Zero loss: every subscriber must get every",
      'event exactly once, all in one order ("1 order(s)"). CPU: user + system time of the server and of the',
      'subscriber processes while events flow, per delivery. One run per mode; all the processes share the 2 cores.',
    ].join(' '),
    goal: 'p99 delivery latency ≤ 50 ms, zero loss',
    command: `node bench/fanout.mjs ${process.argv.slice(2).join(' ') || `${subscribers} ${eventCount}`}`.trim(),
    rows,
  });
}
