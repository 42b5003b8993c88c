/** The scripted agent: reply rules and triggers, delta splitting, chat sequences, tool calls, async idle end. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateConversation } from '../../generated/src/validators.gen.js';
import { withConversationalDefaults } from '../../reference/defaults.js';
import { MAX_DELTAS, planReply, splitIntoDeltas } from '../../reference/replies.js';
import {
  agentConfig,
  closeServiceAfterEach,
  createAgent,
  createConversation,
  eventsOf,
  expectValid,
  makeService,
  send,
  type TestService,
  typesOf,
} from './helpers/fixtures.js';
import { expectConversationRules } from './helpers/rules.js';

let t: TestService;
closeServiceAfterEach(() => t);

const withTools = withConversationalDefaults(
  agentConfig({ tool: { tools: [{ name: 'lookup' }, { entity_id: 'orders_api' }], transfers: [{ id: 'desk' }] } }),
);
const noTools = withConversationalDefaults(agentConfig());

describe('planReply', () => {
  it.each([
    ['echo', 'hello there', noTools, { before: 'You said: hello there', after: '' }],
    ['weather without tools is an echo', 'weather?', noTools, { before: 'You said: weather?', after: '' }],
    [
      'weather calls the first tool',
      'What is the Weather like?',
      withTools,
      {
        before: 'Let me check with lookup. ',
        toolCall: {
          name: 'lookup',
          arguments: '{"query":"What is the Weather like?"}',
          result: '{"ok":true,"echo":{"query":"What is the Weather like?"}}',
        },
        after: 'lookup returned {"ok":true,"echo":{"query":"What is the Weather like?"}}.',
      },
    ],
    [
      '/tool by entity_id with JSON arguments',
      '/tool orders_api {"id": 7}',
      withTools,
      {
        before: 'Let me check with orders_api. ',
        toolCall: { name: 'orders_api', arguments: '{"id":7}', result: '{"ok":true,"echo":{"id":7}}' },
        after: 'orders_api returned {"ok":true,"echo":{"id":7}}.',
      },
    ],
    [
      '/tool without arguments sends {}',
      '/tool lookup',
      withTools,
      expect.objectContaining({ toolCall: expect.objectContaining({ arguments: '{}' }) }),
    ],
    [
      '/tool that fails',
      '/tool lookup {"fail": true}',
      withTools,
      {
        before: 'Let me check with lookup. ',
        toolCall: {
          name: 'lookup',
          arguments: '{"fail":true}',
          result: 'null',
          error: 'The tool failed: its arguments asked it to.',
        },
        after: 'lookup failed.',
      },
    ],
    ['/tool unknown', '/tool nope {}', withTools, { before: 'I have no tool named nope.', after: '' }],
    [
      '/tool bad JSON',
      '/tool lookup {oops',
      withTools,
      { before: 'The arguments of /tool lookup are not JSON.', after: '' },
    ],
    [
      '/field text',
      '/field tier gold',
      noTools,
      { before: 'Custom field tier set.', after: '', field: { key: 'tier', value: 'gold' } },
    ],
    [
      '/field boolean',
      '/field vip true',
      noTools,
      { before: 'Custom field vip set.', after: '', field: { key: 'vip', value: true } },
    ],
    ['/hangup', '/hangup', noTools, { before: 'Goodbye.', after: '', endedBy: 'agent' }],
    [
      '/transfer with a transfer',
      '/transfer',
      withTools,
      { before: 'Transferring you now.', after: '', endedBy: 'transfer' },
    ],
    ['/transfer without', '/transfer', noTools, { before: 'I have no transfer configured.', after: '' }],
  ])('%s', (_name, text, config, expected) => {
    expect(planReply(text, config)).toEqual(expected);
  });
});

describe('splitIntoDeltas', () => {
  it('splits into word chunks that concatenate to the text, at most MAX_DELTAS', () => {
    expect(splitIntoDeltas('You said: hi  there ')).toEqual(['You ', 'said: ', 'hi  ', 'there ']);
    expect(splitIntoDeltas('')).toEqual([]);
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.integer({ min: 1, max: 64 }), (text, max) => {
        const chunks = splitIntoDeltas(`You said: ${text}`, max);
        expect(chunks.join('')).toBe(`You said: ${text}`);
        expect(chunks.length).toBeGreaterThanOrEqual(1);
        expect(chunks.length).toBeLessThanOrEqual(max);
        expect(chunks.every((c) => c.length > 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
    const long = Array.from({ length: 2000 }, () => 'a').join(' ');
    expect(splitIntoDeltas(long)).toHaveLength(MAX_DELTAS);
  });
});

describe('chat conversations', () => {
  async function chat(type: 'chat_realtime' | 'chat_async' = 'chat_realtime', config = agentConfig()) {
    t = makeService({ chatAsyncIdleSeconds: 60 });
    const agentId = await createAgent(t, config);
    return (await createConversation(t, agentId, { type })).id;
  }

  const payloads = (events: ServerEvent[]) => events.map((e) => e.payload);

  it('the first user.message.send starts the chat: started, received, deltas, completed', async () => {
    const id = await chat();
    expect(await send(t, id, { id: 'c1', payload: { type: 'user.message.send', text: 'Hello agent' } })).toBeNull();
    const events = await eventsOf(t, id);
    expectConversationRules(events);
    expect(payloads(events)).toEqual([
      expect.objectContaining({ type: 'conversation.setup' }),
      { type: 'conversation.started' },
      { type: 'user.message.received', text: 'Hello agent' },
      ...['You ', 'said: ', 'Hello ', 'agent'].map((text_delta) => ({
        type: 'agent.message.delta',
        text_delta,
        generation_id: expect.stringMatching(/^gen_/),
      })),
      {
        type: 'agent.message.completed',
        text: 'You said: Hello agent',
        interrupted: false,
        has_tool_calls: false,
        generation_id: expect.stringMatching(/^gen_/),
      },
    ]);
    const record = await t.service.getConversation(t.writer, { conversation_id: id });
    expect(record).toMatchObject({ status: 'in-progress', started_at: '2025-07-01T00:00:00.000Z' });
  });

  it('conversation.start starts it once; later starts change nothing', async () => {
    const id = await chat();
    await send(t, id, { payload: { type: 'conversation.start' } });
    await send(t, id, { payload: { type: 'conversation.start' } });
    await send(t, id, { payload: { type: 'user.message.send', text: 'x' } });
    expect(await typesOf(t, id)).toEqual([
      'conversation.setup',
      'conversation.started',
      'user.message.received',
      'agent.message.delta',
      'agent.message.delta',
      'agent.message.delta',
      'agent.message.completed',
    ]);
  });

  it('a tool call sits inside the generation and is paired by call_id', async () => {
    const id = await chat('chat_realtime', agentConfig({ tool: { tools: [{ name: 'lookup' }], transfers: [] } }));
    await send(t, id, { payload: { type: 'user.message.send', text: 'weather in Paris' } });
    await send(t, id, { payload: { type: 'user.message.send', text: '/tool lookup {"fail":true}' } });
    const events = await eventsOf(t, id);
    expectConversationRules(events);
    const returned = events.filter((e) => e.payload.type === 'agent.tool_call.returned').map((e) => e.payload);
    expect(returned).toEqual([
      expect.not.objectContaining({ error: expect.anything() }),
      expect.objectContaining({ error: 'The tool failed: its arguments asked it to.', result: 'null' }),
    ]);
    const completed = events.filter((e) => e.payload.type === 'agent.message.completed');
    expect(completed.map((e) => e.payload.type === 'agent.message.completed' && e.payload.has_tool_calls)).toEqual([
      true,
      true,
    ]);
  });

  it('/field sets a custom field with conversation.custom_fields.updated (old_value on change)', async () => {
    const id = await chat();
    await send(t, id, { payload: { type: 'user.message.send', text: '/field tier silver' } });
    await send(t, id, { payload: { type: 'user.message.send', text: '/field tier gold' } });
    const updates = payloads(await eventsOf(t, id)).filter((p) => p.type === 'conversation.custom_fields.updated');
    expect(updates).toEqual([
      { type: 'conversation.custom_fields.updated', key: 'tier', new_value: 'silver' },
      { type: 'conversation.custom_fields.updated', key: 'tier', new_value: 'gold', old_value: 'silver' },
    ]);
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).custom_fields).toEqual({
      tier: 'gold',
    });
  });

  it.each([
    ['conversation.end', { payload: { type: 'conversation.end' } }, 'customer'],
    ['/hangup', { payload: { type: 'user.message.send', text: '/hangup' } }, 'agent'],
  ])('%s ends it as completed, ended_by %s, with summary and sentiment', async (_name, event, endedBy) => {
    const id = await chat();
    await send(t, id, { payload: { type: 'user.message.send', text: 'thanks, great help' } });
    await t.clock.advance(2500);
    await send(t, id, event);
    const events = await eventsOf(t, id);
    expectConversationRules(events);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: endedBy });
    const record = await t.service.getConversation(t.writer, { conversation_id: id });
    expectValid(validateConversation, record);
    expect(record).toMatchObject({
      status: 'completed',
      completed_at: '2025-07-01T00:00:02.500Z',
      duration_sec: 2.5,
      failure_reason: null,
      sentiment: 'positive',
    });
    expect(record.summary).toMatch(/^The customer sent \d+ messages?; the agent replied \d+ times?\.$/);
  });

  it('/transfer ends with ended_by transfer when a transfer is configured', async () => {
    const id = await chat('chat_realtime', agentConfig({ tool: { tools: [], transfers: [{ id: 'desk' }] } }));
    await send(t, id, { payload: { type: 'user.message.send', text: '/transfer' } });
    expect((await eventsOf(t, id)).at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'transfer' });
  });

  it('a call hung up before it is answered never started: no duration, summary nor sentiment', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: '+14155550123' });
    await send(t, id, { payload: { type: 'conversation.end' } });
    const record = await t.service.getConversation(t.writer, { conversation_id: id });
    expect(record).toMatchObject({
      status: 'completed',
      started_at: null,
      duration_sec: null,
      summary: null,
      sentiment: null,
    });
    expect(await typesOf(t, id)).toEqual(['conversation.setup', 'conversation.ended']);
  });

  it('a started chat_async ends by itself after the idle time (reset by each client event), without ended_by', async () => {
    const id = await chat('chat_async');
    await send(t, id, { payload: { type: 'user.message.send', text: 'I hate waiting' } });
    await t.clock.advance(50_000);
    await send(t, id, { payload: { type: 'conversation.context.update', data: { a: '1' } } });
    await t.clock.advance(59_999);
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).status).toBe('in-progress');
    await t.clock.advance(1);
    const record = await t.service.getConversation(t.writer, { conversation_id: id });
    expect(record).toMatchObject({ status: 'completed', duration_sec: 110, sentiment: 'negative' });
    expect((await eventsOf(t, id)).at(-1)?.payload).toEqual({ type: 'conversation.ended' });
  });

  it('a queued chat_async does not time out, and a realtime chat never does', async () => {
    const queued = await chat('chat_async');
    await t.clock.advance(3_600_000);
    expect((await t.service.getConversation(t.writer, { conversation_id: queued })).status).toBe('queued');
    const agentId = await createAgent(t);
    const realtime = (await createConversation(t, agentId, { type: 'chat_realtime' })).id;
    await send(t, realtime, { payload: { type: 'conversation.start' } });
    await t.clock.advance(3_600_000);
    expect((await t.service.getConversation(t.writer, { conversation_id: realtime })).status).toBe('in-progress');
  });
});
