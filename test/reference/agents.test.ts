/** Agent versions (DECISIONS.md "Versions"): create releases v1, the PUT rule, release and rollback, reads, delete. */
import { describe, expect, it } from 'vitest';
import {
  validateAgentVersionList,
  validateAgentWriteResponse,
  validateConversationalAgent,
  validateDeletedResponse,
  validateProceduralAgent,
  validateProceduralAgentList,
} from '../../generated/src/validators.gen.js';
import {
  agentConfig,
  closeServiceAfterEach,
  createAgent,
  createProcedural,
  expectValid,
  failure,
  makeService,
  proceduralConfig,
  type TestService,
} from './helpers/fixtures.js';

let t: TestService;
closeServiceAfterEach(() => t);

/** Applies a table of steps to one agent and checks the state after each. */
type Step =
  | { put: string; name: string; want: string }
  | { release: string; want: string }
  | { expect: { latest: string; released: string; drafts: string[] } };

async function conversationalState(id: string) {
  const { data } = await t.service.listConversationalAgentVersions(t.writer, { id });
  expectValid(validateAgentVersionList, { data });
  const latest = await t.service.getConversationalAgent(t.writer, { id });
  expectValid(validateConversationalAgent, latest);
  return {
    latest: latest.version_id.split('@')[1],
    released: data.find((v) => v.is_released)?.version_id.split('@')[1],
    drafts: data.filter((v) => v.is_draft).map((v) => v.version_id.split('@')[1]),
  };
}

describe('conversational agent versions', () => {
  it.each<[string, Step[]]>([
    ['create releases v1', [{ expect: { latest: 'v1', released: 'v1', drafts: [] } }]],
    [
      'PUT on the id copies the released latest into a draft v2, then updates that draft in place',
      [
        { put: '', name: 'second', want: 'v2' },
        { expect: { latest: 'v2', released: 'v1', drafts: ['v2'] } },
        { put: '', name: 'second again', want: 'v2' },
        { expect: { latest: 'v2', released: 'v1', drafts: ['v2'] } },
      ],
    ],
    [
      'PUT on an older released version makes a new draft v<latest+1>; PUT on an older draft changes it in place',
      [
        { put: '', name: 'draft two', want: 'v2' },
        { put: '@v1', name: 'from one', want: 'v3' },
        { expect: { latest: 'v3', released: 'v1', drafts: ['v2', 'v3'] } },
        { put: '@v2', name: 'draft two changed', want: 'v2' },
        { expect: { latest: 'v3', released: 'v1', drafts: ['v2', 'v3'] } },
      ],
    ],
    [
      'release a draft, roll back, and a once-released version is copied, never changed',
      [
        { put: '', name: 'two', want: 'v2' },
        { release: '@v2', want: 'v2' },
        { expect: { latest: 'v2', released: 'v2', drafts: [] } },
        { release: '@v1', want: 'v1' },
        { expect: { latest: 'v2', released: 'v1', drafts: [] } },
        { put: '@v2', name: 'three', want: 'v3' },
        { release: '@v1', want: 'v1' },
        { expect: { latest: 'v3', released: 'v1', drafts: ['v3'] } },
      ],
    ],
  ])('%s', async (_name, steps) => {
    t = makeService();
    const id = await createAgent(t);
    for (const step of steps) {
      if ('put' in step) {
        const answer = await t.service.updateConversationalAgent(t.writer, { id: `${id}${step.put}` }, {}, {
          name: step.name,
        } as never);
        expectValid(validateAgentWriteResponse, answer);
        expect(answer).toEqual({ id, version_id: `${id}@${step.want}` });
      } else if ('release' in step) {
        const answer = await t.service.releaseConversationalAgent(t.writer, { version_id: `${id}${step.release}` });
        expect(answer).toEqual({ id, version_id: `${id}@${step.want}` });
      } else {
        expect(await conversationalState(id)).toEqual(step.expect);
      }
    }
  });

  it('keeps a released version unchanged and reads back any version with defaults filled in', async () => {
    t = makeService();
    const id = await createAgent(t);
    const v1Before = await t.service.getConversationalAgent(t.writer, { id: `${id}@v1` });
    expect(v1Before.config.voice).toEqual({ ambient_sound: null, busy_sound: null, boosted_keywords: [] });
    expect(v1Before.config.runtime.prompt).toEqual({ text: 'You are helpful.', type: 'fixed' });
    expect(v1Before.config.personas[0]?.voice).toEqual({ provider: 'service', id: 'Female 1' });
    const config = agentConfig({ voice: { ambient_sound: 'office', boosted_keywords: ['CASI'] } });
    await t.service.updateConversationalAgent(t.writer, { id }, {}, { config, description: 'new' } as never);
    expect(await t.service.getConversationalAgent(t.writer, { id: `${id}@v1` })).toEqual(v1Before);
    const v2 = await t.service.getConversationalAgent(t.writer, { id: `${id}@v2` });
    expectValid(validateConversationalAgent, v2);
    expect(v2).toMatchObject({ name: 'Agent', description: 'new', is_released: false });
    expect(v2.config.voice).toEqual({ ambient_sound: 'office', busy_sound: null, boosted_keywords: ['CASI'] });
  });

  it('absent and null members keep their value', async () => {
    t = makeService();
    const id = await createAgent(t);
    await t.service.updateConversationalAgent(t.writer, { id }, {}, { name: null, description: 'd' } as never);
    expect(await t.service.getConversationalAgent(t.writer, { id })).toMatchObject({ name: 'Agent', description: 'd' });
  });

  it('refuses a default language outside the supported ones, on create and on PUT', async () => {
    t = makeService();
    const bad = agentConfig({ language: { default_language: 'Spanish', supported_languages: ['English'] } });
    expect(await failure(createAgent(t, bad))).toEqual({ status: 400, code: 'language_not_supported' });
    const id = await createAgent(t);
    const put = t.service.updateConversationalAgent(t.writer, { id }, {}, { config: bad } as never);
    expect(await failure(put)).toEqual({ status: 400, code: 'language_not_supported' });
    expect((await t.service.listConversationalAgentVersions(t.writer, { id })).data).toHaveLength(1);
  });

  it('refuses postprocess_agents that name no procedural agent of the organisation', async () => {
    t = makeService();
    const mine = await createProcedural(t);
    const theirs = (
      await t.service.createProceduralAgent(t.stranger, {}, {}, {
        name: 'x',
        config: proceduralConfig(),
      } as never)
    ).id;
    await createAgent(t, agentConfig(), [mine, `${mine}@v1`]);
    for (const ref of [theirs, `${mine}@v9`, 'pa_unknown']) {
      expect(await failure(createAgent(t, agentConfig(), [ref]))).toEqual({ status: 400, code: 'invalid_request' });
    }
  });

  it('updates an agent whose postprocess_agents names a deleted procedural agent; only sent entries are checked', async () => {
    t = makeService();
    const procedural = await createProcedural(t);
    const id = await createAgent(t, agentConfig(), [procedural]);
    await t.service.deleteProceduralAgent(t.writer, { id: procedural });
    for (const target of [id, `${id}@v1`]) {
      const answer = await t.service.updateConversationalAgent(t.writer, { id: target }, {}, {
        description: 'kept',
      } as never);
      expectValid(validateAgentWriteResponse, answer);
    }
    const put = t.service.updateConversationalAgent(t.writer, { id }, {}, {
      postprocess_agents: [procedural],
    } as never);
    expect(await failure(put)).toEqual({ status: 400, code: 'invalid_request' });
    const latest = await t.service.getConversationalAgent(t.writer, { id });
    expect(latest).toMatchObject({ description: 'kept', postprocess_agents: [procedural] });
  });

  it.each([
    ['an unknown agent', 'ca_unknown'],
    ['an unknown version', '@v7'],
    ['a malformed version', '@v01'],
    ['a procedural id', 'pa_x'],
  ])('answers 404 for %s', async (_name, ref) => {
    t = makeService();
    const id = await createAgent(t);
    const target = ref.startsWith('@') ? `${id}${ref}` : ref;
    expect(await failure(t.service.getConversationalAgent(t.writer, { id: target }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.service.updateConversationalAgent(t.writer, { id: target }, {}, {} as never))).toMatchObject(
      {
        status: 404,
      },
    );
  });

  it('release takes a version id only', async () => {
    t = makeService();
    const id = await createAgent(t);
    expect(await failure(t.service.releaseConversationalAgent(t.writer, { version_id: id }))).toMatchObject({
      status: 404,
    });
    expect(await failure(t.service.listConversationalAgentVersions(t.writer, { id: `${id}@v1` }))).toMatchObject({
      status: 404,
    });
  });

  it('hides agents from other organisations (404) and refuses writes with a read key (403)', async () => {
    t = makeService();
    const id = await createAgent(t);
    expect(await failure(t.service.getConversationalAgent(t.stranger, { id }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.service.updateConversationalAgent(t.stranger, { id }, {}, {} as never))).toMatchObject({
      status: 404,
    });
    expect(await t.service.getConversationalAgent(t.reader, { id })).toMatchObject({ id });
    expect(await failure(createAgent(t, agentConfig(), [], t.reader))).toEqual({ status: 403, code: 'forbidden' });
    expect(await failure(t.service.releaseConversationalAgent(t.reader, { version_id: `${id}@v1` }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
  });
});

describe('procedural agents', () => {
  it('lists agents with released and latest version ids, oldest first, and fills config defaults', async () => {
    t = makeService();
    const first = await createProcedural(t, 'First');
    await t.clock.advance(1000);
    const second = await createProcedural(t, 'Second');
    const put = await t.service.updateProceduralAgent(t.writer, { id: second }, {}, { name: 'Second v2' } as never);
    expect(put.version_id).toBe(`${second}@v2`);
    const list = await t.service.listProceduralAgents(t.writer);
    expectValid(validateProceduralAgentList, list);
    expect(list.data.map((a) => [a.id, a.name, a.released_version_id, a.latest_version_id])).toEqual([
      [first, 'First', `${first}@v1`, `${first}@v1`],
      [second, 'Second v2', `${second}@v1`, `${second}@v2`],
    ]);
    const read = await t.service.getProceduralAgent(t.writer, { id: first });
    expectValid(validateProceduralAgent, read);
    expect(read.config).toEqual({
      filter_statuses: [],
      runtime: { prompt: { text: 'Summarise the conversation.', type: 'fixed' }, reasoning_effort: 'medium' },
      tool: { tools: [] },
      output: { chat_channel: null, output_schema: null, post_url: null },
      filter_condition: null,
    });
    await t.service.releaseProceduralAgent(t.writer, { version_id: `${second}@v2` });
    const after = await t.service.listProceduralAgents(t.writer);
    expect(after.data[1]?.released_version_id).toBe(`${second}@v2`);
    expect((await t.service.listProceduralAgents(t.stranger)).data).toEqual([]);
  });

  it('fills tool ns defaults: entity_id alone is extapi, name alone thirdparty', async () => {
    t = makeService();
    const config = proceduralConfig({
      tool: { tools: [{ entity_id: 'e1' }, { name: 'n1' }, { ns: 'procedural', entity_id: 'pa_1' }] } as never,
    });
    const id = await createProcedural(t, 'Tools', config);
    expect((await t.service.getProceduralAgent(t.writer, { id })).config.tool?.tools).toEqual([
      { ns: 'extapi', entity_id: 'e1' },
      { ns: 'thirdparty', name: 'n1' },
      { ns: 'procedural', entity_id: 'pa_1' },
    ]);
  });

  it('delete answers {id, deleted: true}; every later request on the agent is 404', async () => {
    t = makeService();
    const id = await createProcedural(t);
    const answer = await t.service.deleteProceduralAgent(t.writer, { id });
    expectValid(validateDeletedResponse, answer);
    expect(answer).toEqual({ id, deleted: true });
    const notFound = { status: 404, code: 'not_found' };
    expect(await failure(t.service.deleteProceduralAgent(t.writer, { id }))).toEqual(notFound);
    expect(await failure(t.service.getProceduralAgent(t.writer, { id }))).toEqual(notFound);
    expect(await failure(t.service.getProceduralAgent(t.writer, { id: `${id}@v1` }))).toEqual(notFound);
    expect(await failure(t.service.updateProceduralAgent(t.writer, { id }, {}, {} as never))).toEqual(notFound);
    expect(await failure(t.service.releaseProceduralAgent(t.writer, { version_id: `${id}@v1` }))).toEqual(notFound);
    expect(await failure(t.service.listProceduralAgentVersions(t.writer, { id }))).toEqual(notFound);
    expect((await t.service.listProceduralAgents(t.writer)).data).toEqual([]);
  });

  it('delete of another organisation’s agent is 404 and leaves it alone', async () => {
    t = makeService();
    const id = await createProcedural(t);
    expect(await failure(t.service.deleteProceduralAgent(t.stranger, { id }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await t.service.getProceduralAgent(t.writer, { id })).toMatchObject({ id });
  });
});
