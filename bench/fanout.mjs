// Benchmark: SSE fan-out on the reference server: one conversation, many subscribers (the generated client's
// `conversations.events`), events published by `POST /conversations/{id}/context` (one
// `conversation.context.updated` each, carrying its sequence number). Two runs: publishers unpaced (the most
// events per second delivered to every subscriber), then paced at three quarters of that rate (delivery latency). Each checks
// that every subscriber gets every event exactly once, all in the same order.
// Usage: node bench/fanout.mjs [subscribers] [events] [rate events/s; default: unpaced, then 3/4 of its rate]
import { setMaxListeners } from 'node:events';
import { bundleForNode, ROOT, registerTypeScript, writeSection } from './lib.mjs';
import { call, createConversation, startReference } from './reference-setup.mjs';

const subscribers = Number(process.argv[2] ?? 500);
const eventCount = Number(process.argv[3] ?? 10_000);
const fixedRate = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
/** One run is abandoned after this long (its subscribers are aborted and what they missed counts as lost). */
const DEADLINE_MS = 600_000;
/** Subscribers must all be connected (have received the conversation's first event) within this. */
const CONNECT_MS = 60_000;
/** Concurrent publishers (the server orders their events under the conversation's lock). */
const PUBLISHERS = 4;

await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { cases } = await loadFixtures(ROOT);
const agentConfig = cases.find((c) => c.schema === 'ConversationalAgentConfig')?.valid[0];
const { createClient } = await import(await bundleForNode('generated/src/client.gen.ts', { external: ['ws'] }));

/** Percentile `p` (0–1) of a sorted sample. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * One subscriber: reads the stream until it has seen every sequence number, recording each latency (receipt
 * minus `created_at`) in `latencies` at `offset + seq`; resolves to `{ received, duplicates, order }` where `order`
 * hashes the order of the sequence numbers. `connected` is called at the first event (the conversation's history).
 */
async function subscribe(client, id, signal, latencies, offset, connected) {
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

/** Resolves when `count()` reaches `target`, or fails after `ms`. */
async function waitFor(count, target, ms, what) {
  const deadline = Date.now() + ms;
  while (count() < target) {
    if (Date.now() > deadline) throw new Error(`only ${count()} of ${target} ${what} within ${ms} ms`);
    await sleep(20);
  }
}

/** One run on a fresh server and conversation; `rate` 0 publishes back to back. Resolves to its summary. */
async function fanOut(rate) {
  const server = await startReference({ validateResponses: false, env: { CASI_CHAT_ASYNC_IDLE_SECONDS: '86400' } });
  const abort = new AbortController();
  setMaxListeners(subscribers + 10, abort.signal);
  const deadline = setTimeout(() => abort.abort(), DEADLINE_MS);
  try {
    const id = await createConversation(server.baseUrl, agentConfig);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'sk_bench' });
    const latencies = new Float64Array(subscribers * eventCount).fill(Number.NaN);
    let connected = 0;
    const runs = Array.from({ length: subscribers }, (_, i) =>
      subscribe(client, id, abort.signal, latencies, i * eventCount, () => connected++),
    );
    await waitFor(() => connected, subscribers, CONNECT_MS, 'subscribers connected');

    const start = performance.now();
    let nextSeq = 0;
    /** One publisher: takes the next sequence number (at its due time when paced) until all are sent. */
    const publish = async () => {
      while (nextSeq < eventCount && !abort.signal.aborted) {
        const seq = nextSeq++;
        const wait = rate > 0 ? start + (seq * 1000) / rate - performance.now() : 0;
        if (wait > 0) await sleep(wait);
        await call(server.baseUrl, 'POST', `/conversations/${id}/context`, { data: { seq: String(seq) } });
      }
    };
    await Promise.all(Array.from({ length: PUBLISHERS }, publish));
    const published = performance.now();
    const outcomes = await Promise.all(runs);
    const seconds = (performance.now() - start) / 1000;

    const received = outcomes.reduce((sum, o) => sum + o.received, 0);
    const sorted = latencies.filter((v) => !Number.isNaN(v)).sort();
    const summary = {
      rate,
      seconds,
      publishSeconds: (published - start) / 1000,
      eventsPerSecond: eventCount / seconds,
      deliveriesPerSecond: received / seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1],
      lost: subscribers * eventCount - received,
      duplicates: outcomes.reduce((sum, o) => sum + o.duplicates, 0),
      orders: new Set(outcomes.map((o) => o.order)).size,
      timedOut: abort.signal.aborted,
    };
    console.log(summary);
    return summary;
  } finally {
    clearTimeout(deadline);
    abort.abort();
    await server.close();
  }
}

const results = [];
if (fixedRate === undefined) {
  const unpaced = await fanOut(0);
  results.push(unpaced, await fanOut(Math.max(1, Math.floor((unpaced.eventsPerSecond * 3) / 4))));
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
]);
writeSection('fanout', {
  title: `SSE fan-out (${subscribers} subscribers, ${eventCount} events)`,
  note: [
    'One `chat_async` conversation on the reference server (bundled; `casi serve` defaults, so responses and events',
    `are not validated by the server) in a child process; ${subscribers} subscribers in this process, each the`,
    "generated client's `conversations.events(id)` (fetch, eventsource-parser, JSON, `validateServerEvent` on every",
    `event). ${PUBLISHERS} publishers in this process POST \`/conversations/{id}/context\` ${eventCount} times, each`,
    'emitting one `conversation.context.updated` with a sequence number: first back to back (throughput), then, on a',
    "fresh server, paced at three quarters of the rate reached (latency). Latency: receipt `Date.now()` minus the event's",
    '`created_at` (same machine clock, 1 ms resolution). Zero loss: every subscriber must get every event exactly',
    'once, all in one order ("1 order(s)"). One run per mode (each takes minutes); the load generator, the',
    'subscribers and the server share the 2 cores.',
  ].join(' '),
  goal: 'p99 delivery latency ≤ 50 ms, zero loss',
  command: `node bench/fanout.mjs ${process.argv.slice(2).join(' ') || `${subscribers} ${eventCount}`}`.trim(),
  rows,
});
