/**
 * Phone calls on the clock: every test number's end state and failure reason, the default call, each step run once,
 * customers.
 */
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateConversation, validateCustomer } from '../../generated/src/validators.gen.js';
import { KeyedQueue } from '../../reference/keyed-queue.js';
import {
  CALLER_LINE,
  DNC_LINE,
  FAILURE_REASONS,
  PHONE_STEP_MS,
  phoneStep,
  TEST_NUMBERS,
} from '../../reference/phone.js';
import { ConversationRuntime } from '../../reference/runtime.js';
import { ScriptedAgent } from '../../reference/scripted-agent.js';
import { TimerGroup } from '../../reference/timers.js';
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
import { expectConversationRules } from './helpers/rules.js';

let t: TestService;
closeServiceAfterEach(() => t);

const GENERATION = ['agent.message.delta', 'agent.message.completed'] as const;
const ANSWER = ['conversation.setup', 'conversation.started', 'agent.customer.loaded'];

async function call(number: string, voicemail = true) {
  t = makeService();
  const agentId = await createAgent(t, agentConfig({ channel: { is_voicemail_enabled: voicemail } }));
  const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: number });
  await t.clock.advance(10 * PHONE_STEP_MS);
  const events = await eventsOf(t, id);
  expectConversationRules(events);
  const record = await t.service.getConversation(t.writer, { conversation_id: id });
  expectValid(validateConversation, record);
  /** Types with each generation's deltas collapsed into one `agent.message.delta`. */
  const types = events
    .map((e) => e.payload.type)
    .filter((type, i, all) => !(type === 'agent.message.delta' && all[i - 1] === 'agent.message.delta'));
  return { id, events, record, types };
}

/** What the agent and the caller said, in order. */
function spoken(events: ServerEvent[]): string[] {
  return events.flatMap((e) =>
    e.payload.type === 'agent.message.completed' || e.payload.type === 'user.message.received' ? [e.payload.text] : [],
  );
}

/** The lines of a call to any other number. */
const DEFAULT_CALL_LINES = [
  'Hello, this is Ava. How can I help you today?',
  CALLER_LINE,
  `You said: ${CALLER_LINE}`,
  'Thank you for calling. Goodbye.',
];

describe('test numbers', () => {
  it('documents 13 numbers: busy, no-answer, voicemail and one per failure_reason', () => {
    expect(Object.keys(TEST_NUMBERS)).toHaveLength(13);
    expect(FAILURE_REASONS).toHaveLength(10);
    expect(new Set(FAILURE_REASONS).size).toBe(10);
  });

  it.each([
    ['+15005550001', 'busy'],
    ['+15005550002', 'no-answer'],
  ])('%s ends %s without being answered', async (number, status) => {
    const { record, types, events } = await call(number);
    expect(types).toEqual(['conversation.setup', 'conversation.ended']);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended' });
    expect(record).toMatchObject({
      status,
      failure_reason: null,
      started_at: null,
      duration_sec: null,
      completed_at: '2025-07-01T00:00:02.000Z',
      summary: null,
      sentiment: null,
    });
  });

  it('+15005550003 reaches voicemail: the agent leaves a message when voicemail is enabled', async () => {
    const { record, types, events } = await call('+15005550003');
    expect(types).toEqual([...ANSWER, ...GENERATION, 'conversation.ended']);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'agent' });
    expect(record).toMatchObject({ status: 'voicemail', failure_reason: null, duration_sec: 2 });
  });

  it('+15005550003 with voicemail disabled ends at once, without a message', async () => {
    const { record, types } = await call('+15005550003', false);
    expect(types).toEqual([...ANSWER, 'conversation.ended']);
    expect(record.status).toBe('voicemail');
  });

  it.each(FAILURE_REASONS.map((reason, i) => [`+1500555010${i}`, reason] as const))(
    '%s fails with %s',
    async (number, reason) => {
      const { record, types, events } = await call(number);
      expect(record.status).toBe('failed');
      expect(record.failure_reason).toBe(reason);
      if (reason === 'agent_timeout') {
        expect(types).toEqual([...ANSWER, ...GENERATION, 'conversation.ended']);
        expect(record.duration_sec).toBe(2);
      } else if (reason === 'customer_requested_dnc') {
        expect(types).toEqual([...ANSWER, ...GENERATION, 'user.message.received', 'conversation.ended']);
        expect(events.at(-2)?.payload).toEqual({ type: 'user.message.received', text: DNC_LINE });
        expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'customer' });
      } else {
        expect(types).toEqual(['conversation.setup', 'conversation.ended']);
        expect(record).toMatchObject({ started_at: null, duration_sec: null });
        expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended' });
      }
    },
  );
});

describe('a call to any other number', () => {
  it('is answered, greets, hears the caller, replies, says goodbye and completes on the documented timeline', async () => {
    const { record, types, events } = await call('+14155550123');
    expect(types).toEqual([
      ...ANSWER,
      ...GENERATION,
      'user.message.received',
      ...GENERATION,
      ...GENERATION,
      'conversation.ended',
    ]);
    expect(spoken(events)).toEqual(DEFAULT_CALL_LINES);
    const times = events.map((e) => Date.parse(e.created_at) - Date.parse('2025-07-01T00:00:00.000Z'));
    expect(times[0]).toBe(0);
    expect(times[1]).toBe(PHONE_STEP_MS);
    expect(times.at(-1)).toBe(3 * PHONE_STEP_MS);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'agent' });
    expect(record).toMatchObject({
      status: 'completed',
      direction: 'outbound',
      started_at: '2025-07-01T00:00:02.000Z',
      completed_at: '2025-07-01T00:00:06.000Z',
      duration_sec: 4,
      sentiment: 'neutral',
      summary: 'The customer sent 1 message; the agent replied 3 times.',
    });
    expect(events.filter((e) => e.experimental).map((e) => e.payload.type)).toEqual(['agent.customer.loaded']);
  });

  it('runs each step once: a step run again after it ran (a timer taken up after its claimer died) adds nothing', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: '+14155550123' });
    // The service's store, bus and clock, with a runtime of its own: its timers are closed, so a step run again
    // schedules nothing (the service's own timers drive the call).
    const timers = new TimerGroup(t.clock, () => undefined);
    timers.close();
    const runtime = new ConversationRuntime({ ...t.service, queue: new KeyedQueue(), timers, retentionMs: 1000 });
    const agent = new ScriptedAgent({ chatAsyncIdleMs: 60_000 });
    const again = (name: string) =>
      runtime.timerTask(id, (live) => phoneStep(name)?.(live, agent) ?? Promise.resolve())();
    for (const step of ['phone-answer', 'phone-turn']) {
      await t.clock.advance(PHONE_STEP_MS);
      const before = await eventsOf(t, id);
      await again(step);
      expect(await eventsOf(t, id)).toEqual(before);
    }
    await t.clock.advance(10 * PHONE_STEP_MS);
    expect(spoken(await eventsOf(t, id))).toEqual(DEFAULT_CALL_LINES);
  });

  it('stays queued until answered; client events cannot start it; the customer can hang up mid-call', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: '+14155550123' });
    const refused = await send(t, id, { id: 'early', payload: { type: 'user.message.send', text: 'hi' } });
    expect(refused?.payload).toMatchObject({ type: 'server.error', source_event_id: 'early' });
    await t.clock.advance(PHONE_STEP_MS);
    await send(t, id, { payload: { type: 'user.message.send', text: 'can you hear me' } });
    await send(t, id, { payload: { type: 'conversation.end' } });
    await t.clock.advance(10 * PHONE_STEP_MS);
    const events = await eventsOf(t, id);
    expectConversationRules(events);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'customer' });
    expect((await t.service.getConversation(t.writer, { conversation_id: id })).duration_sec).toBe(0);
  });
});

describe('customers', () => {
  it('one per number per organisation: created by the first call, reused by the next; chats have none', async () => {
    t = makeService();
    const agentId = await createAgent(t);
    const number = '+14155550199';
    const first = await createConversation(t, agentId, { type: 'phone', callee_no: number });
    const second = await createConversation(t, agentId, { type: 'phone', callee_no: number });
    const other = await createConversation(t, agentId, { type: 'phone', callee_no: '+14155550198' });
    const chat = await createConversation(t, agentId, { type: 'chat_async' });
    const theirAgent = await createAgent(t, agentConfig(), [], t.stranger);
    const theirs = await createConversation(t, theirAgent, { type: 'phone', callee_no: number }, {}, t.stranger);
    const customerOf = async (id: string, auth = t.writer) =>
      (await t.service.getConversation(auth, { conversation_id: id })).customer_id;
    const customerId = await customerOf(first.id);
    expect(customerId).toMatch(/^cus_/);
    expect(await customerOf(second.id)).toBe(customerId);
    expect(await customerOf(other.id)).not.toBe(customerId);
    expect(await customerOf(chat.id)).toBeNull();
    const theirCustomer = await customerOf(theirs.id, t.stranger);
    expect(theirCustomer).not.toBe(customerId);
    const customer = await t.service.getCustomer(t.reader, { customer_id: customerId ?? '' });
    expectValid(validateCustomer, customer);
    expect(customer).toMatchObject({
      id: customerId,
      organization_id: 'org_a',
      phone_no: number,
      name: null,
      extra: null,
    });
    expect(await failure(t.service.getCustomer(t.writer, { customer_id: theirCustomer ?? '' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.service.getCustomer(t.writer, { customer_id: 'cus_unknown' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    await t.clock.advance(PHONE_STEP_MS);
    const loaded = (await eventsOf(t, first.id)).find((e) => e.payload.type === 'agent.customer.loaded');
    expect(loaded).toMatchObject({ experimental: true, payload: { customer_id: customerId, phone_no: number } });
    expect(await typesOf(t, chat.id)).not.toContain('agent.customer.loaded');
  });
});
