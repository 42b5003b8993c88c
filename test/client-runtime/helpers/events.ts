/** Event envelopes shaped like the spec's `ServerEvent`, and a tiny hand-written validator for them. */
import type { ValidationIssue, Validator } from '../../../templates/shared/validation.js';

/** A server event as the tests use it (a structural subset of the generated `ServerEvent`). */
export interface TestEvent {
  id: string;
  created_at: string;
  agent_id: string;
  livemode: boolean;
  conversation_id: string;
  experimental: boolean;
  payload: { type: string; [field: string]: unknown };
}

/** The envelope of event number `index` with `payload`. */
export function envelope(index: number, payload: TestEvent['payload'], conversationId = 'conv_1'): TestEvent {
  return {
    id: `ev_${String(index).padStart(6, '0')}`,
    created_at: new Date(Date.UTC(2025, 6, 2, 14, 0, 0, index)).toISOString(),
    agent_id: 'ca_1@v1',
    livemode: false,
    conversation_id: conversationId,
    experimental: false,
    payload,
  };
}

/** `count` events: `conversation.started`, deltas, and `conversation.ended` last. */
export function conversationEvents(count: number): TestEvent[] {
  return Array.from({ length: count }, (_, index) => {
    if (index === 0) return envelope(index, { type: 'conversation.started' });
    if (index === count - 1) return envelope(index, { type: 'conversation.ended', ended_by: 'agent' });
    return envelope(index, { type: 'agent.message.delta', text_delta: `w${index} `, generation_id: 'gen_1' });
  });
}

/** True for `conversation.ended`: the terminal event. */
export const isEnded = (event: { payload: { type: string } }): boolean => event.payload.type === 'conversation.ended';

/** A validator for `TestEvent`: `id` and `payload.type` must be strings. */
export const validateTestEvent: Validator<TestEvent> = Object.assign(
  (data: unknown): data is TestEvent => {
    const issues: ValidationIssue[] = [];
    const event = data as Partial<TestEvent> | null;
    if (typeof event !== 'object' || event === null) {
      issues.push({ pointer: '', message: 'must be object', keyword: 'type' });
    } else {
      if (typeof event.id !== 'string') issues.push({ pointer: '/id', message: 'must be string', keyword: 'type' });
      if (typeof event.payload?.type !== 'string') {
        issues.push({ pointer: '/payload/type', message: 'must be string', keyword: 'type' });
      }
    }
    validateTestEvent.errors = issues.length > 0 ? issues : null;
    return issues.length === 0;
  },
  { errors: null as ValidationIssue[] | null, schemaName: 'ServerEvent' },
);

/** The client events of the spec the session tests send. */
export type ClientEvent =
  | { id?: string; payload: { type: 'user.message.send'; text: string } }
  | { id?: string; payload: { type: 'conversation.end' } };
