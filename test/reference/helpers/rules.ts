/** The wire rules every conversation's events must follow, checked on a whole log. */
import { expect } from 'vitest';
import type { ServerEvent } from '../../../generated/src/types.gen.js';

/**
 * Checks: setup first; started (if any) second; at most one ended, and last; each generation's deltas come before
 * its one completed event whose text is their concatenation; each tool call's created precedes exactly one
 * returned with the same call_id, name and arguments, inside a generation completed with `has_tool_calls: true`.
 */
export function expectConversationRules(events: readonly ServerEvent[]): void {
  const types = events.map((e) => e.payload.type);
  expect(types[0]).toBe('conversation.setup');
  expect(types.filter((type) => type === 'conversation.setup')).toHaveLength(1);
  const started = types.indexOf('conversation.started');
  if (started >= 0) expect(started).toBe(1);
  expect(types.filter((type) => type === 'conversation.started').length).toBeLessThanOrEqual(1);
  const ended = types.indexOf('conversation.ended');
  if (ended >= 0) expect(ended).toBe(types.length - 1);
  const ids = new Set(events.map((e) => e.id));
  expect(ids.size).toBe(events.length);

  const text = new Map<string, string>();
  const done = new Set<string>();
  const openCalls = new Map<string, { name: string; arguments: string; generation: string | undefined }>();
  const callsByGeneration = new Map<string, number>();
  let current: string | undefined;
  for (const { payload } of events) {
    if (payload.type === 'agent.message.delta') {
      expect(done.has(payload.generation_id)).toBe(false);
      text.set(payload.generation_id, (text.get(payload.generation_id) ?? '') + payload.text_delta);
      current = payload.generation_id;
    } else if (payload.type === 'agent.message.completed') {
      expect(done.has(payload.generation_id)).toBe(false);
      expect(text.has(payload.generation_id)).toBe(true);
      expect(payload.text).toBe(text.get(payload.generation_id));
      expect(payload.has_tool_calls).toBe((callsByGeneration.get(payload.generation_id) ?? 0) > 0);
      done.add(payload.generation_id);
      current = undefined;
    } else if (payload.type === 'agent.tool_call.created') {
      expect(openCalls.has(payload.call_id)).toBe(false);
      openCalls.set(payload.call_id, { name: payload.name, arguments: payload.arguments, generation: current });
      if (current !== undefined) callsByGeneration.set(current, (callsByGeneration.get(current) ?? 0) + 1);
      JSON.parse(payload.arguments);
    } else if (payload.type === 'agent.tool_call.returned') {
      const call = openCalls.get(payload.call_id);
      expect(call).toMatchObject({ name: payload.name, arguments: payload.arguments });
      expect(call?.generation).toBeDefined();
      openCalls.delete(payload.call_id);
      JSON.parse(payload.result);
    }
  }
  expect([...openCalls.keys()]).toEqual([]);
  expect([...text.keys()].filter((id) => !done.has(id))).toEqual([]);
}
