/** The API shapes of a conversation: the full record, the list item, the create answer (sharing the record's members). */
import type { Conversation, ConversationListItem, CreateConversationResponse } from '../generated/src/types.gen.js';
import type { ConversationRecord } from './store/records.js';

/**
 * `GET /conversations/{conversation_id}`: the list item's members, then `channel`, `override_config`, `summary`.
 * Written out rather than `{ ...item, channel, … }`: V8 builds a spread followed by more members slowly.
 */
export function toConversation(record: ConversationRecord): Conversation {
  return {
    id: record.id,
    agent_id: record.agent_id,
    livemode: record.livemode,
    created_at: record.created_at,
    direction: record.direction,
    status: record.status,
    custom_fields: record.custom_fields,
    customer_id: record.customer_id,
    channel_type: record.channel_type,
    started_at: record.started_at,
    completed_at: record.completed_at,
    failure_reason: record.failure_reason,
    duration_sec: record.duration_sec,
    sentiment: record.sentiment,
    channel: record.channel,
    override_config: record.override_config,
    summary: record.summary,
  };
}

/** An item of `GET /conversations`. */
export function toConversationListItem(record: ConversationRecord): ConversationListItem {
  return {
    id: record.id,
    agent_id: record.agent_id,
    livemode: record.livemode,
    created_at: record.created_at,
    direction: record.direction,
    status: record.status,
    custom_fields: record.custom_fields,
    customer_id: record.customer_id,
    channel_type: record.channel_type,
    started_at: record.started_at,
    completed_at: record.completed_at,
    failure_reason: record.failure_reason,
    duration_sec: record.duration_sec,
    sentiment: record.sentiment,
  };
}

/**
 * The answer of `POST /conversations`: its id, `token` (given out only here: the record keeps its hash) and the
 * stream and session addresses (without the token).
 */
export function toCreateResponse(
  record: ConversationRecord,
  token: string,
  baseUrl: string,
): CreateConversationResponse {
  const channel = record.channel;
  const phone = channel.type === 'phone' ? channel : null;
  return {
    id: record.id,
    channel: {
      type: channel.type,
      callee_no: phone?.callee_no ?? null,
      caller_no: phone?.caller_no ?? null,
      token,
      events_url: conversationUrl(baseUrl, record.id, 'events'),
      session_url: conversationUrl(baseUrl, record.id, 'session').replace(/^http/, 'ws'),
    },
  };
}

/** `<base>/conversations/<id>/<leaf>`; the base keeps its path (a server mounted under a prefix). */
export function conversationUrl(baseUrl: string, id: string, leaf: 'events' | 'session'): string {
  return `${baseUrl.replace(/\/+$/, '')}/conversations/${encodeURIComponent(id)}/${leaf}`;
}
