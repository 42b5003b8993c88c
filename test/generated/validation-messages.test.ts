/** The generated validators' messages name the allowed values and the bad value, and list each problem once. */
import { describe, expect, it } from 'vitest';
import * as v from '../../generated/src/validators.gen.js';

describe('generated validator messages', () => {
  it('list the allowed values of an enum with the value given', () => {
    expect(v.validateDirection('sideways')).toBe(false);
    expect(v.validateDirection.errors).toEqual([
      { pointer: '', message: 'must be one of "inbound", "outbound", got "sideways"', keyword: 'enum' },
    ]);
  });

  it('name the constant a member must be, and the wrong type given', () => {
    expect(v.validateConversationStarted({ type: 'conversation.ended' })).toBe(false);
    expect(v.validateConversationStarted.errors).toContainEqual({
      pointer: '/type',
      message: 'must be "conversation.started", got "conversation.ended"',
      keyword: 'const',
    });
    expect(v.validateDirection(7)).toBe(false);
    expect(v.validateDirection.errors?.[0]?.message).toBe('must be string, got 7');
  });

  it('leave a long value out of the message', () => {
    const long = 'x'.repeat(100);
    expect(v.validateDirection(long)).toBe(false);
    expect(v.validateDirection.errors?.[0]?.message).toBe('must be one of "inbound", "outbound"');
  });
});
