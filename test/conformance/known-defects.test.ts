/** Reproduces each pinned defect of `known-defects.ts` directly; `it.fails` turns red once a defect is fixed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_DEFECTS } from './known-defects.js';
import { startReference, type Target } from './target.js';

let target: Target;
beforeAll(async () => {
  target = await startReference();
});
afterAll(async () => {
  await target.close();
});

describe('known defects', () => {
  it('each pinned defect has a reproduction below', () => {
    expect(KNOWN_DEFECTS.map((d) => d.id)).toEqual(['path-parameter-over-100-characters']);
  });

  // path-parameter-over-100-characters: a valid 101-character ProcedureId must be looked up (404), not refused.
  it.fails('path-parameter-over-100-characters: GET /procedures/<101 characters> answers 404 not_found', async () => {
    const response = await fetch(`${target.baseUrl}/procedures/${'p'.repeat(101)}`, {
      headers: { 'Service-Version': '2025-06-19', Authorization: `Bearer ${target.keys.write}` },
    });
    expect({ status: response.status, code: ((await response.json()) as { code?: unknown }).code }).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});
