/**
 * Reproduces each pinned defect of `known-defects.ts` directly (`it.fails` turns red once a defect is fixed), and
 * keeps the fixed ones as regression tests named after the defect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfig, clientFor } from '../../conformance/fixtures.js';
import { KNOWN_DEFECTS } from '../../conformance/known-defects.js';
import type { Target } from '../../conformance/target.js';
import { startTestReference } from './test-reference.js';

let target: Target;
beforeAll(async () => {
  target = await startTestReference();
});
afterAll(async () => {
  await target.close();
});

describe('known defects', () => {
  it('each pinned defect has a reproduction below', () => {
    expect(KNOWN_DEFECTS.map((d) => d.id)).toEqual([]);
  });

  // Fixed: Fastify's default maxParamLength (100) refused a valid 101-character ProcedureId with its own 414.
  it('path-parameter-over-100-characters: GET /procedures/<101 characters> answers 404 not_found', async () => {
    const response = await fetch(`${target.baseUrl}/procedures/${'p'.repeat(101)}`, {
      headers: { 'Service-Version': '2025-06-19', Authorization: `Bearer ${target.keys.write}` },
    });
    expect({ status: response.status, code: ((await response.json()) as { code?: unknown }).code }).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('path-parameter-over-100-characters: an over-long id (2,000 characters) is a 404 not_found naming it', async () => {
    const response = await fetch(`${target.baseUrl}/procedures/${'p'.repeat(2000)}`, {
      headers: { 'Service-Version': '2025-06-19', Authorization: `Bearer ${target.keys.write}` },
    });
    const body = (await response.json()) as { code?: unknown; data?: unknown };
    expect({ status: response.status, code: body.code }).toEqual({ status: 404, code: 'not_found' });
    expect(JSON.stringify(body.data)).toContain('/procedure_id');
  });

  // Fixed: a free-form member nested thousands of levels deep overflowed structuredClone in the store (500); bodies
  // nested deeper than MAX_BODY_DEPTH are now refused by the runtime with 400 invalid_request and a pointer.
  it('deeply-nested-free-form-member: POST /conversations with a deep context answers below 500', async () => {
    const client = clientFor(target.baseUrl, target.keys.write);
    const agent = await client.conversationalAgents.create({ name: 'Deep', config: agentConfig() });
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    const response = await fetch(`${target.baseUrl}/conversations`, {
      method: 'POST',
      headers: {
        'Service-Version': '2025-06-19',
        Authorization: `Bearer ${target.keys.write}`,
        'Content-Type': 'application/json',
      },
      body: `{"agent_id":"${agent.id}","channel":{"type":"chat_async"},"context":{"x":${deep}}}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code?: unknown }).code).toBe('invalid_request');
  });
});
