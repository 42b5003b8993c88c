// Benchmark: emulator throughput on `GET /conversations/{conversation_id}` with autocannon over loopback: the
// reference server (request and response validation) vs bare Fastify answering the same JSON vs Prism mocking
// spec/openapi.yaml. Each server runs in its own child process. Usage: node bench/emulator.mjs [runs] [seconds]
import autocannon from 'autocannon';
import { cpuMsOf, ROOT, registerTypeScript, resultRow, startChild, stats, writeSection } from './lib.mjs';
import { call, createConversation, HEADERS, startReference } from './reference-setup.mjs';

const runs = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const CONNECTIONS = 10;
await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { cases } = await loadFixtures(ROOT);
const agentConfig = cases.find((c) => c.schema === 'ConversationalAgentConfig')?.valid[0];

/** One autocannon run of `seconds` against `url`; fails when any answer is not 2xx or any request errs. */
async function load(url, duration) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: HEADERS, timeout: 10 });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}

const servers = [];
try {
  const reference = await startReference();
  servers.push(reference);
  const referenceTsx = await startReference({ viaTsx: true });
  servers.push(referenceTsx);

  const id = await createConversation(reference.baseUrl, agentConfig);
  const tsxId = await createConversation(referenceTsx.baseUrl, agentConfig);
  const body = await call(reference.baseUrl, 'GET', `/conversations/${id}`);
  const fastify = await startChild('bench/fastify-server.mjs', [], { env: { BODY: JSON.stringify(body) } });
  servers.push(fastify);
  const prism = await startChild(
    'node_modules/@stoplight/prism-cli/dist/index.js',
    ['mock', '-h', '127.0.0.1', '-p', '0', 'spec/openapi.yaml'],
    { isReady: (line) => /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1] },
  );
  servers.push(prism);

  const targets = {
    reference: `${reference.baseUrl}/conversations/${id}`,
    referenceTsx: `${referenceTsx.baseUrl}/conversations/${tsxId}`,
    fastify: `http://127.0.0.1:${fastify.ready.port}/conversations/${id}`,
    prism: `http://127.0.0.1:${prism.ready}/conversations/${id}`,
  };
  const pids = { reference: reference.pid, referenceTsx: referenceTsx.pid, fastify: fastify.child.pid };
  const rps = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  const cpuPerRequest = Object.fromEntries(Object.keys(pids).map((name) => [name, []]));
  const p99 = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (const url of Object.values(targets)) await load(url, 1);
  // Round-robin so that machine noise falls on each server alike.
  for (let run = 0; run < runs; run++) {
    for (const [name, url] of Object.entries(targets)) {
      const cpuBefore = cpuMsOf(pids[name]);
      const result = await load(url, seconds);
      if (name in pids) cpuPerRequest[name].push(((cpuMsOf(pids[name]) - cpuBefore) * 1000) / result.requests.total);
      rps[name].push(result.requests.average);
      p99[name].push(result.latency.p99);
      console.log(`${name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms`);
    }
  }
  const median = (name) => stats(rps[name]).median;
  const ratio = (name) => median(name) / median('fastify');
  const p99Text = (name) => `p99 latency median ${stats(p99[name]).median} ms`;
  const cpuText = (name) => `${stats(cpuPerRequest[name]).median.toFixed(0)} µs`;
  writeSection('emulator', {
    title: 'Emulator throughput',
    note: [
      `autocannon (programmatic), ${CONNECTIONS} connections, ${runs} runs × ${seconds} s per server, round-robin`,
      'after a 1 s warm-up each, on `GET /conversations/{conversation_id}` with the bench key and `Service-Version`;',
      'every answer must be 2xx. Each server is its own child process; autocannon runs in the parent (2 cores in',
      'all, so the load generator shares the machine). Reference: `createApp({ config, validateResponses: true })`',
      'bundled with esbuild (as compiled code runs), and the same run through tsx as `casi serve` runs it today.',
      "Bare Fastify: one route returning the reference's answer for that conversation (serialised per request,",
      'no validation). Prism 5.14 (`prism mock spec/openapi.yaml`, static examples, request validation on).',
      `${p99Text('reference')} (reference), ${p99Text('fastify')} (bare Fastify), ${p99Text('prism')} (Prism).`,
      `Server CPU per request (user + system, median): ${cpuText('reference')} (reference), ${cpuText('referenceTsx')}`,
      `(through tsx), ${cpuText('fastify')} (bare Fastify); the request rate is also bounded by autocannon on the same`,
      'cores, so the CPU ratio shows the servers apart more plainly.',
      `Ratio: requests per second over bare Fastify's; reference over Prism: ${(median('reference') / median('prism')).toFixed(1)}×.`,
    ].join(' '),
    goal: 'reference ≥ 0.7× bare Fastify and ≥ 5× Prism',
    command: `node bench/emulator.mjs ${runs} ${seconds}`,
    rows: [
      resultRow('bare Fastify (no validation)', rps.fastify, 'req/s', 1),
      resultRow('reference server (bundled)', rps.reference, 'req/s', ratio('reference')),
      resultRow('reference server (through tsx, as `casi serve`)', rps.referenceTsx, 'req/s', ratio('referenceTsx')),
      resultRow('Prism 5.14 mock', rps.prism, 'req/s', ratio('prism')),
    ],
  });
} finally {
  await Promise.all(servers.map((s) => s.close()));
}
