/** Plain HTTP against an in-process reference server on loopback: the headers of a key, and a chat to work on. */
import { expect } from 'vitest';
import WebSocket from 'ws';
import { agentConfig } from '../../../conformance/fixtures.js';
import type { Target } from '../../../conformance/target.js';

/** The headers of a JSON request with `key`. */
export function headersOf(key: string): Record<string, string> {
  return { 'Content-Type': 'application/json', 'Service-Version': '2025-06-19', Authorization: `Bearer ${key}` };
}

/** Creates an agent and a `chat_realtime` conversation with the write key; returns the conversation id. */
export async function createChat(target: Target): Promise<string> {
  const headers = headersOf(target.keys.write);
  const agent = await fetch(`${target.baseUrl}/conversational_agents`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'A', config: agentConfig() }),
  });
  const agentBody = (await agent.json()) as { id?: string };
  expect(agent.status, JSON.stringify(agentBody)).toBe(200);
  const made = await fetch(`${target.baseUrl}/conversations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ agent_id: agentBody.id, channel: { type: 'chat_realtime' } }),
  });
  const body = (await made.json()) as { id: string };
  expect(made.status, JSON.stringify(body)).toBe(200);
  return body.id;
}

/** Starts a queued chat over a `ws` session (`conversation.start`); resolves once `conversation.started` came. */
export function startChat(baseUrl: string, apiKey: string, id: string): Promise<void> {
  const url = `${baseUrl.replace('http:', 'ws:')}/conversations/${id}/session`;
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${apiKey}` } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${id} did not start within 5 s`)), 5000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('open', () => socket.send(JSON.stringify({ payload: { type: 'conversation.start' } })));
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { payload: { type: string } }).payload.type !== 'conversation.started') return;
      clearTimeout(timer);
      socket.terminate();
      resolve();
    });
  });
}
