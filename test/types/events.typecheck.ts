/** Type tests of the generated event types: narrowing on `payload.type`, the event maps, and refused wrong events. */
import type {
  AgentMessageDelta,
  AgentMessageDeltaEvent,
  ClientEvent,
  ClientEventMap,
  ClientEventType,
  ConversationContextUpdated,
  clientEventTypes,
  ServerEvent,
  ServerEventEnvelope,
  ServerEventMap,
  ServerEventPayloadMap,
  ServerEventType,
  serverEventTypes,
} from '../../generated/src/types.gen.js';
import type { Equal, Expect } from './type-assert.js';

/** Narrowing a server event on `payload.type` gives that type's payload, and only its members. */
export function describeEvent(event: ServerEvent): string {
  switch (event.payload.type) {
    case 'agent.message.delta': {
      const payload: AgentMessageDelta = event.payload;
      // @ts-expect-error a delta has `text_delta`, not `text`
      const wrong: string = event.payload.text;
      return `${payload.generation_id}: ${payload.text_delta}${wrong}`;
    }
    case 'agent.message.completed': {
      const { text, interrupted, has_tool_calls } = event.payload;
      return `${text} ${interrupted === has_tool_calls}`;
    }
    case 'conversation.context.updated': {
      const payload: ConversationContextUpdated = event.payload;
      const data: Record<string, string> = payload.data;
      return Object.keys(data).join(',') + String(payload.trigger_response);
    }
    case 'conversation.custom_fields.updated': {
      const value: string | boolean = event.payload.new_value;
      return String(value);
    }
    case 'agent.tool_call.returned': {
      const error: string | undefined = event.payload.error;
      return `${event.payload.call_id} ${event.payload.result} ${error ?? ''}`;
    }
    default:
      return event.payload.type;
  }
}

/** Narrowing a client event on `payload.type` works the same way. */
export function describeClientEvent(event: ClientEvent): string {
  if (event.payload.type === 'user.message.send') return event.payload.text;
  // @ts-expect-error only `user.message.send` carries `text`
  return event.payload.text;
}

type DeltaByTag = Extract<ServerEvent, { payload: { type: 'agent.message.delta' } }>;

/** `Extract`, the maps and the tag lists agree with the per-message types. */
export type EventTypeChecks = [
  Expect<Equal<DeltaByTag, AgentMessageDeltaEvent>>,
  Expect<Equal<DeltaByTag['payload']['text_delta'], string>>,
  Expect<Equal<ServerEventMap['agent.message.completed']['payload']['text'], string>>,
  Expect<Equal<ServerEventMap['agent.message.delta'], AgentMessageDeltaEvent>>,
  Expect<Equal<ServerEvent['payload']['type'], ServerEventType>>,
  Expect<Equal<ClientEvent['payload']['type'], ClientEventType>>,
  Expect<Equal<(typeof serverEventTypes)[number], ServerEventType>>,
  Expect<Equal<(typeof clientEventTypes)[number], ClientEventType>>,
  Expect<Equal<{ [K in ServerEventType]: Equal<ServerEventMap[K]['payload']['type'], K> }[ServerEventType], true>>,
  Expect<
    Equal<
      { [K in ServerEventType]: Equal<ServerEventMap[K]['payload'], ServerEventPayloadMap[K]> }[ServerEventType],
      true
    >
  >,
  Expect<Equal<{ [K in ClientEventType]: Equal<ClientEventMap[K]['payload']['type'], K> }[ClientEventType], true>>,
  Expect<Equal<ServerEventMap[ServerEventType], ServerEvent>>,
];

const envelope: ServerEventEnvelope = {
  id: 'ev_5Ab5Kq5Wm',
  created_at: '2025-07-02T14:00:05.000Z',
  agent_id: 'ca_7Qk2Lm9Xa@v1',
  livemode: true,
  conversation_id: 'conv_9Xr4Tb2Kp',
  experimental: false,
};

/** A well-formed event compiles. */
export const delta: ServerEvent = {
  ...envelope,
  payload: { type: 'agent.message.delta', text_delta: 'Your order ', generation_id: 'gen_4Ws7Yx2Cv' },
};

/** Wrong events do not. */
export const wrongEvents: ServerEvent[] = [
  // @ts-expect-error `text_delta` is a string
  { ...envelope, payload: { type: 'agent.message.delta', text_delta: 42, generation_id: 'gen_1' } },
  // @ts-expect-error `conversation.started` has no `text`
  { ...envelope, payload: { type: 'conversation.started', text: 'hello' } },
  // @ts-expect-error `generation_id` is required
  { ...envelope, payload: { type: 'agent.message.delta', text_delta: 'Hi' } },
  // @ts-expect-error no such event type
  { ...envelope, payload: { type: 'agent.message.deleted' } },
  // @ts-expect-error the envelope's `livemode` is required
  {
    id: 'ev_1',
    created_at: '',
    agent_id: '',
    conversation_id: '',
    experimental: false,
    payload: { type: 'conversation.started' },
  },
];

/** Wrong client events do not compile either. */
export const wrongClientEvents: ClientEvent[] = [
  // @ts-expect-error `user.message.send` needs `text`
  { payload: { type: 'user.message.send' } },
  // @ts-expect-error context data maps strings to strings
  { payload: { type: 'conversation.context.update', data: { count: 3 } } },
];
