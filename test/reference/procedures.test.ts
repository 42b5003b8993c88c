/** Procedures after a conversation ends: states on the clock, filter_statuses, versions, delete, fields, lists. */
import { describe, expect, it } from 'vitest';
import { validateProcedure, validateProcedureList } from '../../generated/src/validators.gen.js';
import { PHONE_STEP_MS } from '../../reference/phone.js';
import { PROCEDURE_STEP_MS } from '../../reference/procedures.js';
import {
  agentConfig,
  closeServiceAfterEach,
  createAgent,
  createConversation,
  createProcedural,
  eventsOf,
  expectValid,
  failure,
  makeService,
  proceduralConfig,
  send,
  type TestService,
} from './helpers/fixtures.js';

let t: TestService;
closeServiceAfterEach(() => t);

async function procedures(conversationId?: string) {
  const list = await t.service.listProcedures(t.writer, {}, conversationId ? { conversation_id: conversationId } : {});
  expectValid(validateProcedureList, list);
  return Promise.all(
    list.page.map(async (item) => {
      const full = await t.service.getProcedure(t.writer, { procedure_id: item.id });
      expectValid(validateProcedure, full);
      return full;
    }),
  );
}

async function endedChat(postprocess: string[], text = 'hello') {
  const agentId = await createAgent(t, agentConfig(), postprocess);
  const { id } = await createConversation(t, agentId);
  await send(t, id, { payload: { type: 'user.message.send', text } });
  await send(t, id, { payload: { type: 'conversation.end' } });
  return id;
}

describe('procedures', () => {
  it('go pending → running → success with the documented input, output and summary', async () => {
    t = makeService();
    const pa = await createProcedural(t, 'Summariser');
    const id = await endedChat([pa]);
    const states: string[] = [];
    for (let i = 0; i < 3; i++) {
      states.push(...(await procedures(id)).map((p) => p.status));
      await t.clock.advance(PROCEDURE_STEP_MS);
    }
    expect(states).toEqual(['pending', 'running', 'success']);
    const [procedure] = await procedures(id);
    expect(procedure).toMatchObject({
      id: expect.stringMatching(/^proc_[A-Za-z0-9]+$/),
      name: 'Summariser',
      livemode: true,
      conversation_id: id,
      agent_id: pa,
      agent_version_id: `${pa}@v1`,
      error: null,
      input: {
        conversation_id: id,
        status: 'completed',
        transcript: [
          { role: 'user', text: 'hello' },
          { role: 'agent', text: 'You said: hello' },
        ],
      },
      output: { summary: 'The customer sent 1 message; the agent replied 1 time.' },
      summary: 'The customer sent 1 message; the agent replied 1 time.',
    });
  });

  it('set the processed_by custom field after the end, without an event (nothing follows conversation.ended)', async () => {
    t = makeService();
    const pa = await createProcedural(t, 'Tagger');
    const id = await endedChat([pa]);
    const before = await eventsOf(t, id);
    await t.clock.advance(2 * PROCEDURE_STEP_MS);
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).custom_fields).toEqual({
      processed_by: 'Tagger',
    });
    expect(await eventsOf(t, id)).toEqual(before);
    expect(before.at(-1)?.payload.type).toBe('conversation.ended');
  });

  it('follow output_schema top-level properties', async () => {
    t = makeService();
    const schema = {
      type: 'object',
      properties: {
        summary: { type: 'string' },
        score: { type: 'integer' },
        resolved: { type: 'boolean' },
        tags: { type: 'array' },
        mood: { enum: ['calm', 'upset'] },
        extra: { type: 'object' },
        nothing: {},
      },
    };
    const pa = await createProcedural(
      t,
      'Structured',
      proceduralConfig({ output: { output_schema: schema } as never }),
    );
    const id = await endedChat([pa]);
    await t.clock.advance(2 * PROCEDURE_STEP_MS);
    const [procedure] = await procedures(id);
    expect(procedure?.output).toEqual({
      summary: 'The customer sent 1 message; the agent replied 1 time.',
      score: 0,
      resolved: false,
      tags: [],
      mood: 'calm',
      extra: {},
      nothing: null,
    });
  });

  it.each([
    ['empty filter runs for every status', [], 'success'],
    ['a filter listing the status runs', ['completed', 'busy'], 'success'],
    ['a filter without the status is skipped', ['busy', 'failed'], 'skipped'],
  ])('%s', async (_name, filter, status) => {
    t = makeService();
    const pa = await createProcedural(t, 'Filtered', proceduralConfig({ filter_statuses: filter as never }));
    const id = await endedChat([pa]);
    await t.clock.advance(2 * PROCEDURE_STEP_MS);
    const [procedure] = await procedures(id);
    expect(procedure?.status).toBe(status);
    if (status === 'skipped') {
      expect(procedure).toMatchObject({ output: null, summary: null, error: null });
      expect((await t.service.getConversation(t.writer, { conversation_id: id })).custom_fields).toEqual({});
    }
  });

  it('a busy call runs only the procedures whose filter includes busy', async () => {
    t = makeService();
    const onBusy = await createProcedural(t, 'OnBusy', proceduralConfig({ filter_statuses: ['busy'] }));
    const onDone = await createProcedural(t, 'OnDone', proceduralConfig({ filter_statuses: ['completed'] }));
    const agentId = await createAgent(t, agentConfig(), [onBusy, onDone]);
    const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: '+15005550001' });
    await t.clock.advance(PHONE_STEP_MS + 2 * PROCEDURE_STEP_MS);
    const byName = Object.fromEntries((await procedures(id)).map((p) => [p.name, p]));
    expect(byName.OnBusy?.status).toBe('success');
    expect(byName.OnBusy?.input).toMatchObject({ status: 'busy', transcript: [] });
    expect(byName.OnDone?.status).toBe('skipped');
  });

  it('pa_<id> runs the released version, pa_<id>@v<n> that version', async () => {
    t = makeService();
    const pa = await createProcedural(t, 'V1 name');
    await t.service.updateProceduralAgent(t.writer, { id: pa }, {}, { name: 'V2 name' } as never);
    const id = await endedChat([pa, `${pa}@v2`]);
    const found = (await procedures(id)).map((p) => [p.agent_version_id, p.name]).sort();
    expect(found).toEqual([
      [`${pa}@v1`, 'V1 name'],
      [`${pa}@v2`, 'V2 name'],
    ]);
  });

  it('fails when the prompt contains /fail', async () => {
    t = makeService();
    const pa = await createProcedural(
      t,
      'Broken',
      proceduralConfig({ runtime: { prompt: { text: 'Please /fail' } } as never }),
    );
    const id = await endedChat([pa]);
    await t.clock.advance(2 * PROCEDURE_STEP_MS);
    const [procedure] = await procedures(id);
    expect(procedure).toMatchObject({ status: 'failed', error: expect.stringContaining('/fail'), output: null });
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).custom_fields).toEqual({});
  });

  it('deleting the agent cancels its pending procedures; deleted agents get none later; running ones finish', async () => {
    t = makeService();
    const pa = await createProcedural(t, 'Doomed');
    const keeper = await createProcedural(t, 'Keeper');
    const agentId = await createAgent(t, agentConfig(), [pa, keeper]);
    const first = (await createConversation(t, agentId)).id;
    await send(t, first, { payload: { type: 'conversation.end' } });
    await t.service.deleteProceduralAgent(t.writer, { id: pa });
    await t.clock.advance(2 * PROCEDURE_STEP_MS);
    const byName = Object.fromEntries((await procedures(first)).map((p) => [p.name, p.status]));
    expect(byName).toEqual({ Doomed: 'cancelled', Keeper: 'success' });
    const second = (await createConversation(t, agentId)).id;
    await send(t, second, { payload: { type: 'conversation.end' } });
    expect((await procedures(second)).map((p) => p.name)).toEqual(['Keeper']);

    const late = await createProcedural(t, 'Late');
    const lateAgent = await createAgent(t, agentConfig(), [late]);
    const third = (await createConversation(t, lateAgent)).id;
    await send(t, third, { payload: { type: 'conversation.end' } });
    await t.clock.advance(PROCEDURE_STEP_MS);
    await t.service.deleteProceduralAgent(t.writer, { id: late });
    await t.clock.advance(PROCEDURE_STEP_MS);
    expect((await procedures(third)).map((p) => p.status)).toEqual(['success']);
  });

  it('lists newest first with agent_id, conversation_id, created_at filters, cursor and limit; reads are per organisation', async () => {
    t = makeService();
    const a = await createProcedural(t, 'A');
    const b = await createProcedural(t, 'B');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await endedChat([a, b]));
      await t.clock.advance(1000);
    }
    const all = await t.service.listProcedures(t.writer);
    expect(all.page).toHaveLength(6);
    expect(all.page.map((p) => p.conversation_id)).toEqual([ids[2], ids[2], ids[1], ids[1], ids[0], ids[0]]);
    expect((await t.service.listProcedures(t.writer, {}, { agent_id: a })).page.map((p) => p.agent_id)).toEqual([
      a,
      a,
      a,
    ]);
    expect((await t.service.listProcedures(t.writer, {}, { conversation_id: ids[1] })).page).toHaveLength(2);
    const since = await t.service.listProcedures(t.writer, {}, { created_at_gte: '2025-07-01T00:00:01Z' });
    expect(since.page).toHaveLength(4);
    const before = await t.service.listProcedures(t.writer, {}, { created_at_lt: '2025-07-01T00:00:01Z' });
    expect(before.page.map((p) => p.conversation_id)).toEqual([ids[0], ids[0]]);
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await t.service.listProcedures(t.writer, {}, { limit: 4, ...(cursor ? { cursor } : {}) });
      expectValid(validateProcedureList, page);
      paged.push(...page.page.map((p) => p.id));
      if (page.cursor === null) break;
      cursor = page.cursor;
    }
    expect(paged).toEqual(all.page.map((p) => p.id));
    expect((await t.service.listProcedures(t.stranger)).page).toEqual([]);
    expect(await failure(t.service.getProcedure(t.stranger, { procedure_id: paged[0] ?? '' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.service.getProcedure(t.writer, { procedure_id: 'proc_nope' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});
