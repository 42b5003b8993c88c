/**
 * The longest durations the configuration accepts (`MAX_DURATION_SECONDS`, 10 years) work: a server configured with
 * them creates conversations and refreshes their tokens. (Before the cap, a TTL near Number.MAX_SAFE_INTEGER made every
 * POST /conversations answer 500.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_DURATION_SECONDS } from '../../reference/config.js';
import { agentConfig } from '../e2e/fixtures.js';
import { type Harness, startServer } from '../e2e/harness.js';

let h: Harness;
beforeAll(async () => {
  const max = String(MAX_DURATION_SECONDS);
  h = await startServer({
    env: { CASI_TOKEN_TTL_SECONDS: max, CASI_EVENT_RETENTION_SECONDS: max, CASI_CHAT_ASYNC_IDLE_SECONDS: max },
  });
});
afterAll(() => h.close());

it('creates a conversation, refreshes its token and reads it with every duration at its maximum', async () => {
  const agent = await h.writer.conversationalAgents.create({
    name: 'Ava',
    description: '',
    config: agentConfig(),
    postprocess_agents: [],
  });
  const conversation = await h.writer.conversations.create({ agent_id: agent.id, channel: { type: 'chat_async' } });
  expect(conversation.id).toMatch(/^conv_/);
  const token = await h.writer.conversations.refreshToken(conversation.id);
  expect(token.token).not.toBe(conversation.channel.token);
  await h.advance(24 * 3_600_000);
  expect((await h.writer.conversations.retrieve(conversation.id)).status).toBe('queued');
  expect(h.errorLogs).toEqual([]);
  expect(h.backgroundErrors).toEqual([]);
});
