/**
 * The specs against the source, where an audit found them apart: `failure_reason` only with `failed`, `experimental`
 * a plain boolean, procedural config members beyond the table kept, `is_sms_enabled`, UTC timestamps, and every
 * DECISIONS.md heading the specs name exists. Checked with the generated validators and over HTTP on loopback.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfig } from '../../conformance/fixtures.js';
import { startReference, type Target } from '../../conformance/target.js';
import {
  validateConversation,
  validateConversationListItem,
  validateProceduralAgentConfig,
  validateServerEvent,
} from '../../generated/src/validators.gen.js';
import { createChat, headersOf } from './helpers/loopback.js';

const record = {
  id: 'conv_a1',
  agent_id: 'ca_a1@v1',
  livemode: true,
  created_at: '2025-07-01T00:00:00Z',
  direction: 'outbound',
  status: 'completed',
  custom_fields: {},
  customer_id: null,
  channel_type: 'chat_realtime',
  channel: { type: 'chat_realtime' },
  override_config: null,
  started_at: '2025-07-01T00:00:01Z',
  completed_at: '2025-07-01T00:01:00Z',
  failure_reason: null,
  summary: null,
  duration_sec: 59,
  sentiment: null,
};
const { channel: _channel, override_config: _override, summary: _summary, ...listItem } = record;

describe('failure_reason is set only when status is failed', () => {
  it.each([
    ['Conversation', validateConversation, record],
    ['ConversationListItem', validateConversationListItem, listItem],
  ] as const)('%s refuses a reason on another status and takes one on failed', (_name, validate, base) => {
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, failure_reason: 'dial_failed' })).toBe(false);
    expect(validate({ ...base, status: 'failed', failure_reason: 'dial_failed' })).toBe(true);
    expect(validate({ ...base, status: 'failed', failure_reason: null })).toBe(true);
  });
});

describe('timestamps are UTC', () => {
  it('a time the service writes takes Z or +00:00, no other offset', () => {
    expect(validateConversation({ ...record, created_at: '2025-07-01T00:00:00+00:00' })).toBe(true);
    expect(validateConversation({ ...record, created_at: '2025-07-01T02:00:00+02:00' })).toBe(false);
    expect(validateConversation({ ...record, completed_at: '2025-07-01T00:01:00-05:00' })).toBe(false);
  });
});

describe('experimental is a boolean, not tied to the payload type', () => {
  it('a type that graduates, or a new experimental one, still validates', () => {
    const envelope = {
      id: 'ev_a1',
      created_at: '2025-07-01T00:00:00Z',
      agent_id: 'ca_a1@v1',
      livemode: true,
      conversation_id: 'conv_a1',
    };
    expect(
      validateServerEvent({ ...envelope, experimental: false, payload: { type: 'user.dtmf.received', digits: '1' } }),
    ).toBe(true);
    expect(validateServerEvent({ ...envelope, experimental: true, payload: { type: 'conversation.started' } })).toBe(
      true,
    );
  });
});

describe('members beyond the source table', () => {
  it('the procedural config and its runtime accept further members (runtime.model is one)', () => {
    const config = {
      runtime: { prompt: { type: 'fixed', text: 'Sum up.' }, model: 'provider_a/gpt-4o', temperature: 0.2 },
    };
    expect(validateProceduralAgentConfig(config)).toBe(true);
    expect(validateProceduralAgentConfig({ ...config, schedule: 'nightly' })).toBe(true);
  });
});

describe('over HTTP', () => {
  let target: Target;
  beforeAll(async () => {
    target = await startReference();
  });
  afterAll(async () => {
    await target?.close();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers: headersOf(target.keys.write),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
  };

  it('keeps a procedural agent runtime.model and further members, and reads them back', async () => {
    const config = {
      runtime: { prompt: { type: 'fixed', text: 'Sum up.' }, model: 'provider_a/gpt-4o', temperature: 0.2 },
      schedule: 'nightly',
    };
    const made = await send('POST', '/procedural_agents', { name: 'P', config });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const read = await send('GET', `/procedural_agents/${String(made.json.id)}`);
    expect(read.status).toBe(200);
    expect(read.json.config).toMatchObject({
      runtime: { model: 'provider_a/gpt-4o', temperature: 0.2 },
      schedule: 'nightly',
    });
  });

  it('keeps channel.is_sms_enabled of a conversational agent', async () => {
    const config = { ...agentConfig(), channel: { is_voicemail_enabled: false, is_sms_enabled: true } };
    const made = await send('POST', '/conversational_agents', { name: 'C', config });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const read = await send('GET', `/conversational_agents/${String(made.json.id)}`);
    expect(read.json.config).toMatchObject({ channel: { is_voicemail_enabled: false, is_sms_enabled: true } });
  });

  it('takes a list filter in any offset (a client may send local time), and refuses caller_no on a chat', async () => {
    await createChat(target);
    const filtered = await send(
      'GET',
      `/conversations?created_at_gte=${encodeURIComponent('2025-07-01T02:00:00+02:00')}`,
    );
    expect(filtered.status).toBe(200);
    const agents = await send('POST', '/conversational_agents', { name: 'C', config: agentConfig() });
    const chat = await send('POST', '/conversations', {
      agent_id: agents.json.id,
      channel: { type: 'chat_realtime', caller_no: '+14155550100' },
    });
    expect(chat.status).toBe(400);
    expect(chat.json.code).toBe('invalid_request');
  });
});

describe('DECISIONS.md', () => {
  it('has every heading the specs point to', () => {
    const decisions = readFileSync(new URL('../../spec/DECISIONS.md', import.meta.url), 'utf8');
    const headings = new Set([...decisions.matchAll(/^## (.+)$/gm)].map((m) => m[1]));
    const named = ['openapi.yaml', 'asyncapi.yaml'].flatMap((file) => {
      const text = readFileSync(new URL(`../../spec/${file}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
      return [...text.matchAll(/DECISIONS\.md, \\?"(.+?)\\?"/g)].map((m) => m[1]);
    });
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !headings.has(name))).toEqual([]);
  });
});
