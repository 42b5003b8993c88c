// Benchmark: client overhead per request, one request at a time against the same local server (a bare node:http
// server in a child process answering the `Conversation` example): the generated client's
// `conversations.retrieve` vs plain `fetch` vs openapi-fetch alone. Usage: node bench/client.mjs [rounds]
import createOpenapiFetch from 'openapi-fetch';
import {
  bundleForNode,
  compareOps,
  opsPerSecondAsync,
  ROOT,
  registerTypeScript,
  resultRow,
  startChild,
  stats,
  writeSection,
} from './lib.mjs';

const rounds = Number(process.argv[2] ?? 15);
await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { conversation } = await loadFixtures(ROOT);
const { createClient } = await import(await bundleForNode('generated/src/client.gen.ts', { external: ['ws'] }));

const server = await startChild('bench/fixed-json-server.mjs', [], { env: { BODY: JSON.stringify(conversation) } });
try {
  const baseUrl = `http://127.0.0.1:${server.ready.port}`;
  const id = String(conversation.id);
  const apiKey = 'sk_bench';
  const headers = { Authorization: `Bearer ${apiKey}`, 'Service-Version': '2025-06-19' };

  const generated = createClient({ baseUrl, apiKey });
  const generatedOnFetch = createClient({ baseUrl, apiKey, fetch: (input, init) => fetch(input, init) });
  const openapiFetch = createOpenapiFetch({ baseUrl, headers });
  const expectId = (body) => {
    if (body?.id !== id) throw new Error(`unexpected body ${JSON.stringify(body)}`);
  };
  const contenders = [
    {
      name: 'fetch',
      fn: async () => {
        const response = await fetch(`${baseUrl}/conversations/${encodeURIComponent(id)}`, { headers });
        if (!response.ok) throw new Error(`status ${response.status}`);
        expectId(await response.json());
      },
    },
    {
      name: 'openapi-fetch',
      fn: async () => {
        const { data, error } = await openapiFetch.GET('/conversations/{conversation_id}', {
          params: { path: { conversation_id: id } },
        });
        if (error) throw new Error(`error ${JSON.stringify(error)}`);
        expectId(data);
      },
    },
    { name: 'generated', fn: async () => expectId(await generated.conversations.retrieve(id)) },
    { name: 'generated-fetch', fn: async () => expectId(await generatedOnFetch.conversations.retrieve(id)) },
  ];
  const samples = await compareOps(contenders, { rounds, ms: 300, measure: opsPerSecondAsync });
  // Per-request time in microseconds, from requests per second.
  const micros = Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, s.map((ops) => 1e6 / ops)]));
  const median = (name) => stats(micros[name]).median;
  const ratio = (name) => median(name) / median('fetch');
  writeSection('client', {
    title: 'Client overhead per request',
    note: [
      'One request in flight at a time, keep-alive, against a bare `node:http` server in a child process that answers',
      'every request with the `Conversation` example (634 bytes). fetch: `fetch` + `response.json()` with the auth and',
      'version headers; openapi-fetch: its `GET` alone; generated: `createClient({ baseUrl, apiKey })` then',
      '`conversations.retrieve(id)` (headers computed at creation, the default 60 s per-attempt timeout, retry',
      'wrapper and error mapping; openapi-fetch only backs `client.raw`), bundled with esbuild as a compiled',
      'package runs. The client sends every call with `fetch(url, init)` (no `Request` of its own), the timeout',
      'through an `AbortController`: the global fetch without a `fetch` option, and "given `fetch`" is the same',
      'client created with `fetch: (input, init) => fetch(input, init)`. Each round measures each client',
      "for 300 ms, round-robin. Ratio: time per request over plain fetch's.",
    ].join(' '),
    goal: 'generated client ≤ 1.15× plain fetch',
    command: `node bench/client.mjs ${rounds}`,
    rows: [
      resultRow('plain `fetch`', micros.fetch, 'µs', 1),
      resultRow('openapi-fetch alone', micros['openapi-fetch'], 'µs', ratio('openapi-fetch')),
      resultRow('generated `conversations.retrieve`', micros.generated, 'µs', ratio('generated')),
      resultRow(
        'generated `conversations.retrieve`, given `fetch`',
        micros['generated-fetch'],
        'µs',
        ratio('generated-fetch'),
      ),
    ],
  });
  console.log(
    `fetch ${median('fetch').toFixed(0)} µs, openapi-fetch ${median('openapi-fetch').toFixed(0)} µs (${ratio('openapi-fetch').toFixed(2)}×), generated ${median('generated').toFixed(0)} µs (${ratio('generated').toFixed(2)}×), given fetch ${median('generated-fetch').toFixed(0)} µs (${ratio('generated-fetch').toFixed(2)}×)`,
  );
} finally {
  await server.close();
}
