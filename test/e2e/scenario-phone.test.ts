/**
 * Phone conversations on the fast-forwarded clock: a normal number is answered, talks and completes (customer
 * loaded and readable); each documented test number ends with its status and `failure_reason`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { readUntil, type ScenarioAgents, startConversation, startScenario, typesOf } from './fixtures.js';
import type { Harness } from './harness.js';

/** Milliseconds between the steps of a call (README: "one step every 2 s"). */
const STEP_MS = 2_000;

/** The documented TEST NUMBERS: callee → status, failure_reason, whether the call is answered. */
const TEST_NUMBERS: readonly (readonly [string, string, string | null, boolean])[] = [
  ['+15005550001', 'busy', null, false],
  ['+15005550002', 'no-answer', null, false],
  ['+15005550003', 'voicemail', null, true],
  ['+15005550100', 'failed', 'dial_failed', false],
  ['+15005550101', 'failed', 'number_marked_disconnected', false],
  ['+15005550102', 'failed', 'pstn_blocked', false],
  ['+15005550103', 'failed', 'dnc_rejected', false],
  ['+15005550104', 'failed', 'tcpa_rejected', false],
  ['+15005550105', 'failed', 'number_invalid', false],
  ['+15005550106', 'failed', 'internal_error', false],
  ['+15005550107', 'failed', 'telephony_error', false],
  ['+15005550108', 'failed', 'agent_timeout', true],
  ['+15005550109', 'failed', 'customer_requested_dnc', true],
];

let h: Harness;
let agents: ScenarioAgents;
beforeAll(async () => ({ h, agents } = await startScenario()));
afterAll(() => h.close());

/** Reads a conversation's whole stream with its token (as a browser would), once it has ended. */
async function streamOf(conversationId: string, token: string): Promise<ServerEvent[]> {
  return readUntil(h.client().conversations.events(conversationId, { token, signal: AbortSignal.timeout(5_000) }));
}

describe('phone scenario', () => {
  it('answers a normal number, talks, completes, and loads the customer', async () => {
    const callee = '+15551230001';
    const created = await startConversation(h.writer, agents.agentId, { type: 'phone', callee_no: callee });
    expect(created.channel).toMatchObject({ type: 'phone', callee_no: callee });
    const queued = await h.writer.conversations.retrieve(created.id);
    expect(queued).toMatchObject({ status: 'queued', direction: 'outbound', started_at: null });
    const stream = h.client().conversations.events(created.id, { token: created.channel.token });
    const reading = readUntil(stream);

    await h.advance(STEP_MS);
    expect((await h.writer.conversations.retrieve(created.id)).status).toBe('in-progress');
    await h.advance(2 * STEP_MS);
    const events = await reading;
    expect(typesOf(events).slice(0, 3)).toEqual([
      'conversation.setup',
      'conversation.started',
      'agent.customer.loaded',
    ]);
    expect(events.at(-1)?.payload).toEqual({ type: 'conversation.ended', ended_by: 'agent' });
    const said = events.flatMap((e) =>
      e.payload.type === 'agent.message.completed' || e.payload.type === 'user.message.received'
        ? [e.payload.text]
        : [],
    );
    expect(said).toEqual([
      'Hello, this is Ava. How can I help you today?',
      'I would like to check the status of my order.',
      'You said: I would like to check the status of my order.',
      'Thank you for calling. Goodbye.',
    ]);

    const conversation = await h.writer.conversations.retrieve(created.id);
    expect(conversation).toMatchObject({ status: 'completed', duration_sec: 4, failure_reason: null });
    expect(conversation.channel).toMatchObject({ type: 'phone', callee_no: callee });
    const loaded = events[2]?.payload;
    expect(loaded).toMatchObject({ customer_id: conversation.customer_id, phone_no: callee });
    const customer = await h.writer.customers.retrieve(conversation.customer_id ?? '');
    expect(customer).toMatchObject({ id: conversation.customer_id, phone_no: callee, organization_id: 'org_a' });
    expect(await h.reader.customers.retrieve(customer.id)).toEqual(customer);
  });

  it('ends each test number with its status and failure_reason', async () => {
    const created = await Promise.all(
      TEST_NUMBERS.map(([callee]) => startConversation(h.writer, agents.agentId, { type: 'phone', callee_no: callee })),
    );
    await h.advance(3 * STEP_MS);
    for (const [index, [callee, status, reason, answered]] of TEST_NUMBERS.entries()) {
      const { id, channel } = created[index] ?? { id: '', channel: { token: '' } };
      const conversation = await h.writer.conversations.retrieve(id);
      expect({ callee, status: conversation.status, reason: conversation.failure_reason }).toEqual({
        callee,
        status,
        reason,
      });
      expect(conversation.started_at !== null).toBe(answered);
      const types = typesOf(await streamOf(id, channel.token));
      expect(types[0]).toBe('conversation.setup');
      expect(types.at(-1)).toBe('conversation.ended');
      expect(types.includes('conversation.started')).toBe(answered);
    }
  });

  it('leaves no background error and no error log', () => {
    expect(h.backgroundErrors).toEqual([]);
    expect(h.errorLogs).toEqual([]);
  });
});
