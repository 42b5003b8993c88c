// Benchmark: reading a long history, the SSE stream beside the WebSocket session, on one reference server. A
// started chat gets `events` context injections of `size` bytes each (a history of about events × size bytes);
// then its whole history is read, alternately over SSE (`GET …/events`, parsed with eventsource-parser, each `data`
// with JSON.parse) and over the session (`ws`, each frame with JSON.parse), until the last injected event arrives.
// Usage: node bench/history-read.mjs [events=8000] [size=4000] [runs=5]
import { createParser } from 'eventsource-parser';
import WebSocket from 'ws';
import { ROOT, registerTypeScript, resultRow, stats, writeSection } from './lib.mjs';
import { call, createConversation, HEADERS, startConversation, startReference } from './reference-setup.mjs';

const events = Number(process.argv[2] ?? 8000);
const size = Number(process.argv[3] ?? 4000);
const runs = Number(process.argv[4] ?? 5);
/** Concurrent injections while the history is built (the server orders them under the conversation's lock). */
const INJECTORS = 8;
/** One read is abandoned after this long. */
const READ_DEADLINE_MS = 300_000;

await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { cases } = await loadFixtures(ROOT);
const agentConfig = cases.find((c) => c.schema === 'ConversationalAgentConfig')?.valid[0];

const server = await startReference({ validateResponses: false, env: { CASI_CHAT_ASYNC_IDLE_SECONDS: '86400' } });
try {
  const id = await createConversation(server.baseUrl, agentConfig);
  await startConversation(server.baseUrl, id);
  const filler = 'x'.repeat(size);
  let next = 0;
  let lastEventId = '';
  const inject = async () => {
    while (next < events) {
      const seq = next++;
      const answer = await call(server.baseUrl, 'POST', `/conversations/${id}/context`, {
        data: { seq: String(seq), filler },
      });
      if (seq === events - 1) lastEventId = answer.event_id;
    }
  };
  await Promise.all(Array.from({ length: INJECTORS }, inject));
  const sse = [];
  const ws = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const a = await readSse(server.baseUrl, id, lastEventId);
    const b = await readSession(server.baseUrl, id, lastEventId);
    sse.push(a.ms);
    ws.push(b.ms);
    bytes = a.bytes;
    console.log(`run ${run + 1}: SSE ${a.ms.toFixed(0)} ms (${a.count} events), WebSocket ${b.ms.toFixed(0)} ms`);
  }
  const sseMs = stats(sse).median;
  const wsMs = stats(ws).median;
  const mib = bytes / 1024 / 1024;
  const speed = wsMs / sseMs;
  writeSection('history-read', {
    title: `History read: SSE vs WebSocket session (${events} events, ${mib.toFixed(1)} MiB)`,
    note: [
      `One reference server (bundled, responses not validated); a started chat with ${events} \`conversation.context.updated\``,
      `events of ${size} bytes of context each, read whole ${runs} times over each transport, alternately, by one`,
      'reader in the bench process that parses every event (eventsource-parser and JSON.parse for SSE, JSON.parse per',
      `frame for the session). SSE delivers the history at ${speed.toFixed(2)}× the session's speed`,
      `(${(mib / (sseMs / 1000)).toFixed(1)} MiB/s against ${(mib / (wsMs / 1000)).toFixed(1)} MiB/s).`,
    ].join(' '),
    rows: [
      resultRow('SSE stream (`GET …/events`)', sse, 'ms', sseMs / wsMs),
      resultRow('WebSocket session', ws, 'ms', 1),
    ],
    command: `node bench/history-read.mjs ${events} ${size} ${runs}`,
    goal: "SSE delivers a history at ≥ 0.8× the WebSocket session's speed (time ratio ≤ 1.25×)",
  });
} finally {
  await server.close();
}

/** Reads the SSE stream until `lastId` arrives; resolves to its time, event count and bytes read. */
async function readSse(baseUrl, id, lastId) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), READ_DEADLINE_MS);
  const started = performance.now();
  let count = 0;
  let bytes = 0;
  let done = false;
  const parser = createParser({
    onEvent: (message) => {
      JSON.parse(message.data);
      count++;
      if (message.id === lastId) done = true;
    },
  });
  try {
    const response = await fetch(`${baseUrl}/conversations/${id}/events`, {
      headers: HEADERS,
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      bytes += chunk.length;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (done) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  if (!done) throw new Error(`SSE: the history ended after ${count} events without ${lastId}`);
  return { ms: performance.now() - started, count, bytes };
}

/** Reads the session until `lastId` arrives; resolves to its time and event count. */
function readSession(baseUrl, id, lastId) {
  const started = performance.now();
  const socket = new WebSocket(`${baseUrl.replace('http:', 'ws:')}/conversations/${id}/session`, { headers: HEADERS });
  let count = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('WebSocket: the history did not arrive in time')), READ_DEADLINE_MS);
    const fail = (error) => {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('message', (data) => {
      const event = JSON.parse(String(data));
      count++;
      if (event.id !== lastId) return;
      clearTimeout(timer);
      socket.terminate();
      resolve({ ms: performance.now() - started, count });
    });
  });
}
