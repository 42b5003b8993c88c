import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import type { Ir } from '../../generator/ir/model.js';
import { loadSpecs } from '../../generator/load/index.js';
import { SPEC } from './helpers.js';

const ir: Ir = buildIr(await loadSpecs(SPEC.openapi, SPEC.asyncapi));
const byId = new Map(ir.operations.map((o) => [o.id, o]));

describe('ir: operations', () => {
  it.each([
    ['createConversationalAgent', 'conversationalAgents.create', 'post', '/conversational_agents', 'http'],
    [
      'releaseConversationalAgent',
      'conversationalAgents.release',
      'post',
      '/conversational_agents/{version_id}/release',
      'http',
    ],
    ['deleteProceduralAgent', 'proceduralAgents.delete', 'delete', '/procedural_agents/{id}', 'http'],
    ['listConversations', 'conversations.list', 'get', '/conversations', 'http'],
    ['streamConversationEvents', 'conversations.events', 'get', '/conversations/{conversation_id}/events', 'sse'],
    [
      'openConversationSession',
      'conversations.session',
      'get',
      '/conversations/{conversation_id}/session',
      'websocket',
    ],
    ['getCustomer', 'customers.retrieve', 'get', '/customers/{customer_id}', 'http'],
  ])('%s is %s (%s %s, %s)', (id, name, method, path, transport) => {
    const op = byId.get(id);
    expect(`${op?.resource}.${op?.methodName}`).toBe(name);
    expect([op?.method, op?.path, op?.transport]).toEqual([method, path, transport]);
  });

  it('has every operation once, sorted by resource and method', () => {
    expect(ir.operations).toHaveLength(22);
    const keys = ir.operations.map((o) => `${o.resource}.${o.methodName}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b)));
  });

  it('groups parameters by location and keeps security alternatives', () => {
    const list = byId.get('listConversations');
    expect(list?.parameters.query.map((p) => p.name)).toEqual([
      'completed_at_gte',
      'completed_at_lt',
      'created_at_gte',
      'created_at_lt',
      'cursor',
      'limit',
    ]);
    expect(list?.parameters.header.map((p) => [p.name, p.required])).toEqual([['Service-Version', true]]);
    expect(list?.paginated).toBe('data');
    expect(byId.get('listProcedures')?.paginated).toBe('page');
    expect(byId.get('streamConversationEvents')?.security).toEqual(['apiKey', 'conversationToken']);
    expect(byId.get('getConversation')?.security).toEqual(['apiKey']);
    expect(byId.get('updateConversationalAgent')?.requestBody?.required).toBe(true);
    expect(byId.get('releaseProceduralAgent')?.requestBody).toBeUndefined();
  });

  it('resolves responses to their schemas', () => {
    const responses = byId.get('getConversation')?.responses ?? [];
    expect(responses.map((r) => r.status)).toEqual(['200', '400', '401', '403', '404', '429', '5XX']);
    expect(responses[0]?.schema).toEqual({ $ref: '#/components/schemas/Conversation' });
    expect(responses.find((r) => r.status === '429')?.headers).toEqual(['Retry-After']);
  });
});

describe('ir: events, schemas, error codes', () => {
  it('has the 15 server and 4 client events with their tags', () => {
    expect(ir.events.filter((e) => e.direction === 'server')).toHaveLength(15);
    expect(ir.events.filter((e) => e.direction === 'client').map((e) => e.type)).toEqual([
      'conversation.context.update',
      'conversation.end',
      'conversation.start',
      'user.message.send',
    ]);
    const delta = ir.events.find((e) => e.type === 'agent.message.delta');
    expect(delta).toMatchObject({
      name: 'AgentMessageDeltaEvent',
      payloadSchema: 'AgentMessageDelta',
      envelopeSchema: 'ServerEvent',
      experimental: false,
    });
    expect(
      ir.events
        .filter((e) => e.experimental)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['agent.customer.loaded', 'agent.dtmf.sent', 'agent.notice.sent', 'user.dtmf.received']);
    expect(ir.events.find((e) => e.type === 'conversation.setup')?.channels).toContain('conversationSetupWebhook');
  });

  it('sorts schemas and reads the version and error table', () => {
    const names = ir.schemas.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(ir.serviceVersion).toBe('2025-06-19');
    expect(ir.errorCodes.find((c) => c.code === 'rate_limited')).toMatchObject({ status: 429, transient: true });
    expect(ir.schemas.find((s) => s.name === 'Sentiment')?.inferred).toBe(true);
  });
});
