/**
 * A chat_realtime conversation from start to finish, through the generated client only: agents, draft and
 * release, the WebSocket session (messages, a tool call, context by client event and by REST, a custom field, the
 * end), the SSE stream equal to the session, and the procedure that runs afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageAssembler, ToolCallTracker } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import {
  idsOf,
  readUntil,
  readUntilType,
  type ScenarioAgents,
  startConversation,
  startScenario,
  TOOL,
  typesOf,
  WAIT_MS,
} from './fixtures.js';
import type { Harness } from './harness.js';

let h: Harness;
let agents: ScenarioAgents;
beforeAll(async () => ({ h, agents } = await startScenario()));
afterAll(() => h.close());

describe('chat_realtime scenario', () => {
  const sessionEvents: ServerEvent[] = [];
  let conversationId = '';

  it('versions the agent: create, draft, release', async () => {
    const versions = await h.writer.conversationalAgents.listVersions(agents.agentId);
    expect(versions.data.map((v) => [v.version_id, v.is_released])).toEqual([
      [`${agents.agentId}@v1`, false],
      [`${agents.agentId}@v2`, true],
    ]);
    const agent = await h.writer.conversationalAgents.retrieve(agents.agentId);
    expect(agent).toMatchObject({ version_id: agents.releasedVersion, description: 'Order support (v2).' });
    expect(agent.postprocess_agents).toEqual([agents.proceduralId]);
  });

  it('creates the conversation with addresses built from the Host the client used', async () => {
    const created = await startConversation(h.writer, agents.agentId, { type: 'chat_realtime' });
    conversationId = created.id;
    expect(created.channel.type).toBe('chat_realtime');
    expect(created.channel.events_url).toBe(`${h.baseUrl}/conversations/${created.id}/events`);
    expect(created.channel.session_url).toBe(
      `${h.baseUrl.replace('http:', 'ws:')}/conversations/${created.id}/session`,
    );
    expect(created.channel.token).toMatch(/^ct_/);
    const conversation = await h.writer.conversations.retrieve(created.id);
    expect(conversation).toMatchObject({ status: 'queued', agent_id: agents.releasedVersion, direction: 'inbound' });

    const session = h.writer.conversations.session(created.id, { token: created.channel.token });
    try {
      await session.ready;
      sessionEvents.push(...(await readUntilType(session, 'conversation.setup')));
      expect(sessionEvents[0]?.payload).toMatchObject({ type: 'conversation.setup', direction: 'inbound' });

      session.send({ payload: { type: 'conversation.start' } });
      sessionEvents.push(...(await readUntilType(session, 'conversation.started')));
      expect((await h.writer.conversations.retrieve(created.id)).status).toBe('in-progress');

      // A message: received, deltas of one generation, then the completed text.
      session.send({ id: 'c1', payload: { type: 'user.message.send', text: 'Hello there' } });
      const reply = await readUntilType(session, 'agent.message.completed');
      sessionEvents.push(...reply);
      expect(reply[0]?.payload).toEqual({ type: 'user.message.received', text: 'Hello there' });
      const assembler = new MessageAssembler();
      for (const event of reply) assembler.feed(event);
      const deltas = reply.filter((e) => e.payload.type === 'agent.message.delta');
      expect(deltas.length).toBeGreaterThan(0);
      const completed = reply.at(-1);
      if (completed?.payload.type !== 'agent.message.completed') throw new Error('no completed message');
      expect(completed.payload).toMatchObject({ text: 'You said: Hello there', has_tool_calls: false });
      expect(deltas.map((d) => (d.payload.type === 'agent.message.delta' ? d.payload.text_delta : '')).join('')).toBe(
        completed.payload.text,
      );
      expect(assembler.feed(completed)?.text).toBe('You said: Hello there');

      // The documented trigger: the word "weather" calls the first configured tool.
      session.send({ payload: { type: 'user.message.send', text: 'How is the weather today?' } });
      const toolTurn = await readUntilType(session, 'agent.message.completed');
      sessionEvents.push(...toolTurn);
      const tracker = new ToolCallTracker<ServerEvent>();
      for (const event of toolTurn) tracker.feed(event);
      const [call] = tracker.completed;
      expect(call?.created?.payload).toMatchObject({ name: TOOL, arguments: '{"query":"How is the weather today?"}' });
      expect(call?.returned.payload.call_id).toBe(call?.created?.payload.call_id);
      expect(JSON.parse(call?.returned.payload.result ?? 'null')).toEqual({
        ok: true,
        echo: { query: 'How is the weather today?' },
      });
      expect(toolTurn.at(-1)?.payload).toMatchObject({ has_tool_calls: true });

      // Context by client event, then by REST (answered at once with trigger_response).
      session.send({ payload: { type: 'conversation.context.update', data: { plan: 'gold' } } });
      const byEvent = await readUntilType(session, 'conversation.context.updated');
      sessionEvents.push(...byEvent);
      expect(byEvent.at(-1)?.payload).toEqual({
        type: 'conversation.context.updated',
        data: { plan: 'gold' },
        trigger_response: false,
      });
      const injected = await h.writer.conversations.injectContext(created.id, {
        data: { tier: '2' },
        trigger_response: true,
      });
      expect(injected.conversation_id).toBe(created.id);
      const byRest = await readUntilType(session, 'agent.message.completed');
      sessionEvents.push(...byRest);
      expect(byRest[0]).toMatchObject({
        id: injected.event_id,
        payload: { data: { tier: '2' }, trigger_response: true },
      });
      expect(byRest.at(-1)?.payload).toMatchObject({ text: 'Noted: tier=2.' });

      // A custom field set while live, then the end.
      session.send({ payload: { type: 'user.message.send', text: '/field topic billing' } });
      const field = await readUntilType(session, 'agent.message.completed');
      sessionEvents.push(...field);
      expect(field.find((e) => e.payload.type === 'conversation.custom_fields.updated')?.payload).toMatchObject({
        key: 'topic',
        new_value: 'billing',
      });
      session.send({ payload: { type: 'conversation.end' } });
      const end = await readUntil(session);
      sessionEvents.push(...end);
      expect(end.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'customer' });
    } finally {
      session.close();
    }
    expect(new Set(idsOf(sessionEvents)).size).toBe(sessionEvents.length);
  });

  it('streams over SSE exactly the events the session received', async () => {
    const streamed = await readUntil(h.writer.conversations.events(conversationId, { signal: timeout() }));
    expect(idsOf(streamed)).toEqual(idsOf(sessionEvents));
    expect(streamed).toEqual(sessionEvents);
    expect(typesOf(streamed).at(0)).toBe('conversation.setup');
  });

  it('records the outcome, and the procedure runs after the end', async () => {
    const conversation = await h.writer.conversations.retrieve(conversationId);
    expect(conversation).toMatchObject({
      status: 'completed',
      custom_fields: { topic: 'billing' },
      summary: 'The customer sent 3 messages; the agent replied 4 times.',
      failure_reason: null,
    });
    const [pending] = await firstPage(h, conversationId);
    expect(pending).toMatchObject({ agent_id: agents.proceduralId, status: 'pending' });
    await h.advance(1_000);
    expect((await h.writer.procedures.retrieve(pending?.id ?? '')).status).toBe('running');
    await h.advance(1_000);
    const done = await h.writer.procedures.retrieve(pending?.id ?? '');
    expect(done).toMatchObject({ status: 'success', conversation_id: conversationId, error: null });
    expect(done.output).toEqual({ summary: conversation.summary });
    const after = await h.writer.conversations.retrieve(conversationId);
    expect(after.custom_fields).toEqual({ topic: 'billing', processed_by: 'Summariser' });
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});

async function firstPage(harness: Harness, conversationId: string) {
  return (await harness.writer.procedures.list({ conversation_id: conversationId }).firstPage()).page;
}

function timeout(): AbortSignal {
  return AbortSignal.timeout(WAIT_MS);
}
