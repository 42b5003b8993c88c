/**
 * A chat_async conversation: started by its first message, answered, then ended by the idle timeout (fast-forwarded
 * clock); the procedure whose `filter_statuses` excludes `completed` is skipped, the other succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScenarioAgents,
  proceduralConfig,
  readUntil,
  readUntilType,
  startConversation,
  typesOf,
  WAIT_MS,
} from './fixtures.js';
import { type Harness, startServer } from './harness.js';

/** `CASI_CHAT_ASYNC_IDLE_SECONDS` of this suite. */
const IDLE_SECONDS = 30;

let h: Harness;

beforeAll(async () => {
  h = await startServer({ env: { CASI_CHAT_ASYNC_IDLE_SECONDS: String(IDLE_SECONDS) } });
});
afterAll(async () => {
  await h.close();
});

describe('chat_async scenario', () => {
  it('starts with the first message, ends after the idle time, and runs or skips each procedure', async () => {
    const failedOnly = await h.writer.proceduralAgents.create({
      name: 'Failure review',
      description: 'Only after failed conversations.',
      config: proceduralConfig(['failed']),
    });
    const agents = await createScenarioAgents(h.writer, [failedOnly.id]);
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_async' });
    const session = h.writer.conversations.session(created.id);
    try {
      session.send({ payload: { type: 'user.message.send', text: 'Thanks, great service!' } });
      const turn = await readUntilType(session, 'agent.message.completed');
      expect(typesOf(turn).slice(0, 3)).toEqual([
        'conversation.setup',
        'conversation.started',
        'user.message.received',
      ]);
      expect(turn.at(-1)?.payload).toMatchObject({ text: 'You said: Thanks, great service!' });

      await h.advance((IDLE_SECONDS - 1) * 1000);
      expect((await h.writer.conversations.retrieve(created.id)).status).toBe('in-progress');
      await h.advance(1000);
      const end = await readUntil(session);
      expect(end.map((e) => e.payload)).toEqual([{ type: 'conversation.ended' }]);
    } finally {
      session.close();
    }

    const conversation = await h.writer.conversations.retrieve(created.id);
    expect(conversation).toMatchObject({
      status: 'completed',
      channel_type: 'chat_async',
      sentiment: 'positive',
      duration_sec: IDLE_SECONDS,
      customer_id: null,
    });
    await h.advance(2_000);
    const procedures = await h.writer.procedures.list({ conversation_id: created.id }).firstPage();
    const byAgent = new Map(procedures.page.map((p) => [p.agent_id, p.status]));
    expect(byAgent).toEqual(
      new Map([
        [agents.proceduralId, 'success'],
        [failedOnly.id, 'skipped'],
      ]),
    );
    const streamed = await readUntil(
      h.writer.conversations.events(created.id, { signal: AbortSignal.timeout(WAIT_MS) }),
    );
    expect(typesOf(streamed).at(-1)).toBe('conversation.ended');
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
