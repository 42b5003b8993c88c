/** Conversations over REST: create (resolution, override merge, answer), read, list (filters, cursors), context. */
import { describe, expect, it } from 'vitest';
import type { ConversationListItem } from '../../generated/src/types.gen.js';
import {
  validateConversation,
  validateConversationList,
  validateCreateConversationResponse,
  validateInjectContextResponse,
} from '../../generated/src/validators.gen.js';
import { AgentCatalog } from '../../reference/agents.js';
import {
  agentConfig,
  closeServiceAfterEach,
  createAgent,
  createConversation,
  eventsOf,
  expectValid,
  failure,
  makeService,
  send,
  type TestService,
  typesOf,
} from './helpers/fixtures.js';

let t: TestService;
closeServiceAfterEach(() => t);

describe('createConversation', () => {
  it.each([
    ['chat_realtime', { type: 'chat_realtime' as const }, 'inbound', null, null],
    ['chat_async', { type: 'chat_async' as const, priority: 'high' as const }, 'inbound', null, null],
    [
      'phone',
      { type: 'phone' as const, callee_no: '+14155550123', caller_no: '+14155550100' },
      'outbound',
      '+14155550123',
      '+14155550100',
    ],
  ])(
    'answers %s with its token and addresses, and stores a queued record',
    async (type, channel, direction, callee, caller) => {
      t = makeService();
      const agentId = await createAgent(t);
      const answer = await createConversation(t, agentId, channel);
      expectValid(validateCreateConversationResponse, answer);
      expect(answer.channel).toEqual({
        type,
        callee_no: callee,
        caller_no: caller,
        token: expect.stringMatching(/^ct_[A-Za-z0-9]{43}$/),
        events_url: `http://127.0.0.1:4010/conversations/${answer.id}/events`,
        session_url: `ws://127.0.0.1:4010/conversations/${answer.id}/session`,
      });
      const record = await t.service.getConversation(t.writer, { conversation_id: answer.id });
      expectValid(validateConversation, record);
      expect(record).toMatchObject({
        id: answer.id,
        agent_id: `${agentId}@v1`,
        livemode: true,
        status: 'queued',
        direction,
        channel_type: type,
        custom_fields: {},
        started_at: null,
        completed_at: null,
        duration_sec: null,
        failure_reason: null,
        summary: null,
        sentiment: null,
        override_config: null,
      });
      expect(record.customer_id === null).toBe(type !== 'phone');
      const [setup] = await eventsOf(t, answer.id);
      expect(setup?.payload).toEqual({
        type: 'conversation.setup',
        direction,
        channel: type === 'phone' ? { type, callee_no: callee, caller_no: caller, recording_url: null } : { type },
      });
    },
  );

  it('uses an https base for wss session addresses and keeps a base path', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const answer = await t.service.createConversation(
      t.writer,
      {},
      {},
      {
        agent_id: agentId,
        channel: { type: 'chat_realtime' },
      } as never,
      { baseUrl: 'https://api.example.org/casi/' },
    );
    expect(answer.channel.events_url).toBe(`https://api.example.org/casi/conversations/${answer.id}/events`);
    expect(answer.channel.session_url).toBe(`wss://api.example.org/casi/conversations/${answer.id}/session`);
  });

  it('ca_<id> uses the released version; ca_<id>@v<n> that version, even a draft', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    await t.service.updateConversationalAgent(t.writer, { id: agentId }, {}, { name: 'draft' } as never);
    const released = await createConversation(t, agentId);
    const draft = await createConversation(t, `${agentId}@v2`);
    expect((await t.service.getConversation(t.writer, { conversation_id: released.id })).agent_id).toBe(
      `${agentId}@v1`,
    );
    expect((await t.service.getConversation(t.writer, { conversation_id: draft.id })).agent_id).toBe(`${agentId}@v2`);
    const [event] = await eventsOf(t, draft.id);
    expect(event?.agent_id).toBe(`${agentId}@v2`);
  });

  it('answers 404 for an unknown agent, version, or another organisation’s agent', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    for (const ref of ['ca_unknown', `${agentId}@v5`]) {
      expect(await failure(createConversation(t, ref))).toEqual({ status: 404, code: 'not_found' });
    }
    expect(await failure(createConversation(t, agentId, undefined, {}, t.stranger))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(createConversation(t, agentId, undefined, {}, t.reader))).toEqual({
      status: 403,
      code: 'forbidden',
    });
  });

  it('answers 400 agent_not_released for ca_<id> of an agent (from a seeded store) with no released version', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const record = await t.service.store.conversationalAgents.get(agentId);
    if (record === undefined) throw new Error('missing agent');
    await t.service.store.conversationalAgents.put({ ...record, released: null });
    expect(await failure(createConversation(t, agentId))).toEqual({ status: 400, code: 'agent_not_released' });
    expect(AgentCatalog).toBeDefined();
  });

  it('deep-merges override_config into this conversation’s configuration only', async () => {
    t = makeService();
    const agentId = await createAgent(t, agentConfig({ tool: { tools: [], transfers: [] } }));
    const override = {
      voice: { ambient_sound: 'office' },
      tool: { tools: [{ name: 'lookup' }] },
      language: { default_language: 'Spanish' },
    };
    const answer = await createConversation(t, agentId, undefined, { override_config: override as never });
    const stored = await t.service.store.conversations.get(answer.id);
    expect(stored?.config.voice).toEqual({ ambient_sound: 'office', busy_sound: null, boosted_keywords: [] });
    expect(stored?.config.tool).toEqual({ tools: [{ ns: 'thirdparty', name: 'lookup' }], transfers: [] });
    expect(stored?.config.language).toEqual({
      default_language: 'Spanish',
      supported_languages: ['English', 'Spanish'],
    });
    expect((await t.service.getConversation(t.writer, { conversation_id: answer.id })).override_config).toEqual(
      override,
    );
    expect((await t.service.getConversationalAgent(t.writer, { id: agentId })).config.voice.ambient_sound).toBeNull();
    await send(t, answer.id, { payload: { type: 'user.message.send', text: 'weather?' } });
    expect(await typesOf(t, answer.id)).toContain('agent.tool_call.created');
  });

  it('checks the merged configuration: the language rule and the schema', async () => {
    t = makeService();
    const agentId = await createAgent(
      t,
      agentConfig({ language: { default_language: 'English', supported_languages: ['English'] } }),
    );
    const spanish = { language: { default_language: 'Spanish' } };
    expect(await failure(createConversation(t, agentId, undefined, { override_config: spanish as never }))).toEqual({
      status: 400,
      code: 'language_not_supported',
    });
    const broken = { runtime: { prompt: { text: 'x', type: 'fixed', routes: [] } } };
    const error = await createConversation(t, agentId, undefined, { override_config: broken as never }).catch((e) => e);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(JSON.stringify(error.data)).toContain('/override_config/runtime/prompt');
  });

  it('keeps livemode false and the context given', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const answer = await createConversation(t, agentId, undefined, {
      livemode: false,
      context: { plan: 'gold' } as never,
    });
    const record = await t.service.getConversation(t.writer, { conversation_id: answer.id });
    expect(record.livemode).toBe(false);
    const [event] = await eventsOf(t, answer.id);
    expect(event?.livemode).toBe(false);
    const injected = await t.service.injectConversationContext(t.writer, { conversation_id: answer.id }, {}, {
      data: { tier: '2' },
    } as never);
    expect(injected.context).toEqual({ plan: 'gold', tier: '2' });
  });
});

describe('listConversations', () => {
  async function seed(count: number, stepMs = 1000): Promise<string[]> {
    const agentId = await createAgent(t);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await createConversation(t, agentId)).id);
      await t.clock.advance(stepMs);
    }
    return ids;
  }

  async function pages(query: Record<string, unknown>, maxPages = 50): Promise<ConversationListItem[][]> {
    const out: ConversationListItem[][] = [];
    let cursor: string | undefined;
    for (let i = 0; i < maxPages; i++) {
      const page = await t.service.listConversations(t.writer, {}, { ...query, ...(cursor ? { cursor } : {}) });
      expectValid(validateConversationList, page);
      out.push(page.data);
      if (page.cursor === null) return out;
      cursor = page.cursor;
    }
    throw new Error('too many pages');
  }

  it('pages newest first with limit 1–100 (default 20) and a null cursor on the last page', async () => {
    t = makeService();
    const ids = await seed(45, 10);
    const result = await pages({});
    expect(result.map((p) => p.length)).toEqual([20, 20, 5]);
    expect(result.flat().map((c) => c.id)).toEqual([...ids].reverse());
    expect((await pages({ limit: 45 })).map((p) => p.length)).toEqual([45]);
    expect(await failure(t.service.listConversations(t.writer, {}, { limit: 0 }))).toEqual({
      status: 400,
      code: 'invalid_request',
    });
    expect(await failure(t.service.listConversations(t.writer, {}, { limit: 101 }))).toEqual({
      status: 400,
      code: 'invalid_request',
    });
    expect(await failure(t.service.listConversations(t.writer, {}, { cursor: 'cur_bogus' }))).toEqual({
      status: 400,
      code: 'invalid_request',
    });
  });

  it('keeps later pages stable while conversations are created between pages', async () => {
    t = makeService();
    const ids = await seed(10);
    const agentId = await createAgent(t);
    const first = await t.service.listConversations(t.writer, {}, { limit: 4 });
    for (let i = 0; i < 5; i++) await createConversation(t, agentId);
    const seen = [...first.data.map((c) => c.id)];
    let cursor = first.cursor;
    for (let i = 0; cursor !== null && i < 10; i++) {
      const page = await t.service.listConversations(t.writer, {}, { limit: 4, cursor });
      seen.push(...page.data.map((c) => c.id));
      await createConversation(t, agentId);
      cursor = page.cursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('orders conversations created at the same instant by id, without repeats across pages', async () => {
    t = makeService();
    const ids = await seed(7, 0);
    const result = (await pages({ limit: 3 })).flat().map((c) => c.id);
    expect(result).toEqual([...ids].sort().reverse());
  });

  it.each([
    ['created_at_gte', { created_at_gte: '2025-07-01T00:00:03Z' }, [3, 4, 5]],
    ['created_at_lt', { created_at_lt: '2025-07-01T00:00:02.000Z' }, [0, 1]],
    ['both created bounds', { created_at_gte: '2025-07-01T00:00:01Z', created_at_lt: '2025-07-01T00:00:03Z' }, [1, 2]],
    ['a time zone offset', { created_at_gte: '2025-07-01T02:00:04+02:00' }, [4, 5]],
    ['completed_at_gte', { completed_at_gte: '2025-07-01T00:00:10Z' }, [0, 2]],
    ['completed_at_lt', { completed_at_lt: '2025-07-01T00:00:10Z' }, [4]],
    ['completed range', { completed_at_gte: '2025-07-01T00:00:09Z', completed_at_lt: '2025-07-01T00:00:11Z' }, [0, 2]],
  ])('filters by %s', async (_name, query, indexes) => {
    t = makeService();
    const ids = await seed(6);
    // At 6 s conversation 4 ends; at 10 s conversations 0 and 2 end; the others stay open.
    await send(t, ids[4] ?? '', { payload: { type: 'conversation.end' } });
    await t.clock.advance(4000);
    for (const i of [0, 2]) await send(t, ids[i] ?? '', { payload: { type: 'conversation.end' } });
    const found = (await pages(query)).flat().map((c) => ids.indexOf(c.id));
    expect(found.sort()).toEqual(indexes);
  });

  it('refuses a time filter that is not a time, and lists only the caller’s organisation', async () => {
    t = makeService();
    await seed(2);
    expect(await failure(t.service.listConversations(t.writer, {}, { created_at_gte: 'yesterday' }))).toEqual({
      status: 400,
      code: 'invalid_request',
    });
    expect((await t.service.listConversations(t.stranger)).data).toEqual([]);
    expect((await t.service.listConversations(t.reader)).data).toHaveLength(2);
  });
});

describe('injectConversationContext', () => {
  it('merges data, emits conversation.context.updated and answers its id and the whole context', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId);
    await send(t, id, { payload: { type: 'conversation.start' } });
    const first = await t.service.injectConversationContext(t.writer, { conversation_id: id }, {}, {
      data: { a: '1' },
    } as never);
    const second = await t.service.injectConversationContext(
      t.writer,
      { conversation_id: id },
      {},
      {
        data: { b: '2', a: '3' },
        trigger_response: false,
      },
    );
    expectValid(validateInjectContextResponse, second);
    expect(second).toEqual({
      conversation_id: id,
      event_id: expect.stringMatching(/^ev_/),
      context: { a: '3', b: '2' },
    });
    const events = await eventsOf(t, id);
    const updates = events.filter((e) => e.payload.type === 'conversation.context.updated');
    expect(updates.map((e) => [e.id, e.payload])).toEqual([
      [first.event_id, { type: 'conversation.context.updated', data: { a: '1' }, trigger_response: false }],
      [second.event_id, { type: 'conversation.context.updated', data: { b: '2', a: '3' }, trigger_response: false }],
    ]);
  });

  it('with trigger_response on a started conversation, the agent answers at once', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId);
    await send(t, id, { payload: { type: 'conversation.start' } });
    await t.service.injectConversationContext(
      t.writer,
      { conversation_id: id },
      {},
      {
        data: { order: 'A-1' },
        trigger_response: true,
      },
    );
    const events = await eventsOf(t, id);
    const completed = events.filter((e) => e.payload.type === 'agent.message.completed').map((e) => e.payload);
    expect(completed).toEqual([expect.objectContaining({ text: 'Noted: order=A-1.' })]);
  });

  it('answers 409 conversation_ended after the end, 404 elsewhere, 403 for a read key', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId);
    const body = { data: { a: '1' } } as never;
    expect(await failure(t.service.injectConversationContext(t.reader, { conversation_id: id }, {}, body))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect(await failure(t.service.injectConversationContext(t.stranger, { conversation_id: id }, {}, body))).toEqual({
      status: 404,
      code: 'not_found',
    });
    await send(t, id, { payload: { type: 'conversation.end' } });
    expect(await failure(t.service.injectConversationContext(t.writer, { conversation_id: id }, {}, body))).toEqual({
      status: 409,
      code: 'conversation_ended',
    });
  });
});

describe('getConversation', () => {
  it('answers 404 for an unknown id and for another organisation’s conversation', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId);
    expect(await failure(t.service.getConversation(t.writer, { conversation_id: 'conv_nope' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.service.getConversation(t.stranger, { conversation_id: id }))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});
