// Starting the reference server for the HTTP benchmarks (bundled, or through tsx as `casi serve` runs it) and
// creating what they need on it (an agent and a chat conversation, started when asked), with the bench API key.
import WebSocket from 'ws';
import { bundleForNode, startChild } from './lib.mjs';

/** The API key the reference server is started with. */
export const API_KEY = 'sk_bench';
/** The headers every benchmark request carries: the key and the `Service-Version`. */
export const HEADERS = { authorization: `Bearer ${API_KEY}`, 'service-version': '2025-06-19' };

let bundle;

/**
 * Starts bench/reference-server.ts in a child process: bundled with esbuild (packages from node_modules), or,
 * with `viaTsx`, run through tsx. `env` adds `CASI_*` settings; `validateResponses: false` is `casi serve`'s default.
 * With `BENCH_PROFILE_DIR` set, the server writes a `node --cpu-prof` profile there when it stops.
 * Resolves to `{ baseUrl, pid, close }`.
 */
export async function startReference({ viaTsx = false, validateResponses = true, env = {} } = {}) {
  bundle ??= await bundleForNode('bench/reference-server.ts', { packages: 'external' });
  const childEnv = {
    CASI_API_KEYS: `${API_KEY}:org_bench:write`,
    BENCH_VALIDATE_RESPONSES: validateResponses ? '1' : '0',
    ...env,
  };
  const profile = process.env.BENCH_PROFILE_DIR;
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = viaTsx
    ? await startChild('bench/reference-server.ts', [], { env: childEnv, nodeArgs: [...profiling, '--import', 'tsx'] })
    : await startChild(bundle, [], { env: childEnv, nodeArgs: profiling });
  return { baseUrl: `http://127.0.0.1:${child.ready.port}`, pid: child.child.pid, close: child.close };
}

/** Calls the server with the bench key; resolves to the JSON answer, fails on any non-2xx answer. */
export async function call(baseUrl, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...HEADERS, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates an agent with `config` and a `chat_async` conversation with it; resolves to the conversation's id. */
export async function createConversation(baseUrl, config) {
  const agent = await call(baseUrl, 'POST', '/conversational_agents', { name: 'Bench', config });
  const conversation = await call(baseUrl, 'POST', '/conversations', {
    agent_id: agent.version_id,
    channel: { type: 'chat_async' },
  });
  return conversation.id;
}

/** Starts a queued chat: `conversation.start` over its session; resolves once `conversation.started` is sent. */
export function startConversation(baseUrl, id, timeoutMs = 10_000) {
  const socket = new WebSocket(`${baseUrl.replace('http:', 'ws:')}/conversations/${id}/session`, { headers: HEADERS });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`conversation ${id} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error) => {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('open', () => socket.send(JSON.stringify({ payload: { type: 'conversation.start' } })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).payload?.type !== 'conversation.started') return;
      clearTimeout(timer);
      socket.close();
      resolve();
    });
  });
}
