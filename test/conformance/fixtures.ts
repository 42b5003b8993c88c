/**
 * Prerequisite resources, created through the public API with the generated client (so they work on any server):
 * agents of both kinds with a draft, a live and an ended chat (hence procedures and events), a phone call (hence a
 * customer). Their ids feed generated path parameters and bodies so generated requests reach 2xx answers.
 */
import { type Client, createClient } from '../../generated/src/client.gen.js';
import type { ConversationalAgentConfig, ServerEvent } from '../../generated/src/types.gen.js';

/** What the fixtures made. */
export interface Fixtures {
  /** Every id they made: agents and versions, conversations, customers, procedures, events. */
  readonly ids: readonly string[];
  readonly agent: { readonly id: string; readonly releasedVersionId: string; readonly draftVersionId: string };
  readonly proceduralAgent: { readonly id: string; readonly versionId: string };
  /** A chat that has not ended, with its token. */
  readonly liveConversation: { readonly id: string; readonly token: string };
  /** A chat that ended after one exchange (its procedure exists), with its token and its events. */
  readonly endedConversation: { readonly id: string; readonly token: string; readonly events: readonly ServerEvent[] };
}

/** A complete conversational-agent configuration with one tool and one transfer. */
export function agentConfig(): ConversationalAgentConfig {
  return {
    personas: [{ name: 'Ada', voice: { provider: 'service', id: 'Female 1' } }],
    voice: { boosted_keywords: ['order'] },
    runtime: { model: 'provider_a/gpt-4o', prompt: { type: 'fixed', text: 'Help the customer.' }, variables: [] },
    tool: { tools: [{ ns: 'syscall', name: 'lookup_order' }], transfers: [{ id: 'desk' }] },
    language: { default_language: 'English', supported_languages: ['English', 'Spanish'] },
    channel: { is_voicemail_enabled: false },
  };
}

/** A client of `baseUrl` with `apiKey`, without retries (a conformance failure must not be retried away). */
export function clientFor(baseUrl: string, apiKey: string): Client {
  return createClient({ baseUrl, apiKey, maxRetries: 0 });
}

/** Creates the fixtures through `client`. */
export async function createFixtures(client: Client): Promise<Fixtures> {
  const procedural = await client.proceduralAgents.create({
    name: 'Conformance summary',
    config: { runtime: { prompt: { type: 'fixed', text: 'Summarise.' } } },
  });
  const created = await client.conversationalAgents.create({
    name: 'Conformance agent',
    description: 'Made by the conformance suite.',
    config: agentConfig(),
    postprocess_agents: [procedural.id],
  });
  const draft = await client.conversationalAgents.update(created.id, { name: 'Conformance agent (draft)' });
  const live = await client.conversations.create({ agent_id: created.id, channel: { type: 'chat_realtime' } });
  const ended = await client.conversations.create({ agent_id: created.id, channel: { type: 'chat_async' } });
  const events = await chatThenEnd(client, ended.id, 'hello');
  const phone = await client.conversations.create({
    agent_id: created.id,
    channel: { type: 'phone', callee_no: '+15550001111' },
  });
  const customerId = (await client.conversations.retrieve(phone.id)).customer_id;
  const procedures = await client.procedures.list({ conversation_id: ended.id }).firstPage();
  const ids = [
    procedural.id,
    procedural.version_id,
    created.id,
    created.version_id,
    draft.version_id,
    live.id,
    ended.id,
    phone.id,
    ...(customerId === null ? [] : [customerId]),
    ...procedures.page.map((p) => p.id),
    ...events.map((e) => e.id),
  ];
  return {
    ids,
    agent: { id: created.id, releasedVersionId: created.version_id, draftVersionId: draft.version_id },
    proceduralAgent: { id: procedural.id, versionId: procedural.version_id },
    liveConversation: { id: live.id, token: live.channel.token },
    endedConversation: { id: ended.id, token: ended.channel.token, events },
  };
}

/** Sends one message and `conversation.end` over a session; resolves with every event once the end arrives. */
export async function chatThenEnd(client: Client, conversationId: string, text: string): Promise<ServerEvent[]> {
  const session = client.conversations.session(conversationId);
  const events: ServerEvent[] = [];
  try {
    session.send({ payload: { type: 'user.message.send', text } });
    session.send({ payload: { type: 'conversation.end' } });
    for await (const event of session) events.push(event);
  } finally {
    session.close();
  }
  return events;
}
