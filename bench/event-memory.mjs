// Benchmark: memory after many events. Three fresh processes run bench/event-memory-worker.ts (bundled; the service
// in process, requests by `app.inject`) with the same load: chats in waves of `concurrent`, each started, given
// `perConversation` context updates of `size` bytes and ended, until `events` updates were injected. One with the documented limits (CASI_MAX_EVENTS,
// CASI_MAX_EVENTS_PER_CONVERSATION at their defaults), one with them lifted (the service before the limits), and
// one with the limits after half the events (where RSS levels off). RSS is read after a full collection.
// Usage: node bench/event-memory.mjs [events=1000000] [concurrent=100] [perConversation=100] [size=500]
import { spawnSync } from 'node:child_process';
import { bundleForNode, writeSection } from './lib.mjs';

const args = process.argv.slice(2);
const [events = 1_000_000, concurrent = 100, perConversation = 100, size = 500] = args.map(Number);
const bundle = await bundleForNode('bench/event-memory-worker.ts', { packages: 'external' });
const UNBOUNDED = String(Number.MAX_SAFE_INTEGER);

function run(env) {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', bundle, ...[events, concurrent, perConversation, size].map(String)],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    },
  );
  if (result.status !== 0) throw new Error(`event-memory worker failed (${result.status ?? result.signal})`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

const half = run({}, Math.round(events / 2));
console.log('limits on, half the events:', half);
const bounded = run({});
console.log('limits on:', bounded);
const unbounded = run({ CASI_MAX_EVENTS: UNBOUNDED, CASI_MAX_EVENTS_PER_CONVERSATION: UNBOUNDED });
console.log('limits off:', unbounded);
const row = (tool, r, ratio) => ({
  tool,
  median: `${r.rssMb.toFixed(0)} MB RSS`,
  range: `heap ${r.heapMb.toFixed(0)} MB; ${r.held} events held; ${(r.ms / 1000).toFixed(0)} s`,
  ratio: `${ratio.toFixed(2)}×`,
});
writeSection('event-memory', {
  title: `Event memory: RSS after ${events.toLocaleString('en')} events`,
  note: [
    `The reference server in process (\`app.inject\`): chats in waves of ${concurrent}, each started, given ${perConversation}`,
    `\`conversation.context.updated\` events of ${size} bytes of context and ended, ${events} events in all; RSS and heap`,
    'after a full collection. One process with the documented limits (20 000 events per conversation, 200 000 in all; the',
    'oldest histories dropped, ended ones first), one with the limits lifted, and one with the limits after half the',
    'events, to show where RSS levels off. One run each; the "min–max" column holds the heap, the events the bus holds',
    'at the end and the time taken.',
  ].join(' '),
  rows: [
    row(`limits on, after ${Math.round(events / 2)} events`, half, half.rssMb / unbounded.rssMb),
    row('limits on (defaults)', bounded, bounded.rssMb / unbounded.rssMb),
    row('limits off', unbounded, 1),
  ],
  command: `node bench/event-memory.mjs ${events} ${concurrent} ${perConversation} ${size}`,
  goal: 'RSS stays bounded whatever the number of events: set by the limits, not by the events sent',
});
