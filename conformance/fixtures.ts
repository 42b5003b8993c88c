/**
 * Prerequisite resources, created through the public API with the generated client (so they work on any server):
 * agents of both kinds with a draft, a live and an ended chat (hence procedures and events), a phone call (hence a
 * customer). Their ids feed generated path parameters and bodies so generated requests reach 2xx answers.
 */
import { ApiConnectionError, ApiError, type Client, createClient } from '../generated/src/client.gen.js';
import type { ConversationalAgentConfig, ServerEvent } from '../generated/src/types.gen.js';
import { type ConformanceSpec, loadConformanceSpec, refName } from './spec.js';
import { networkErrorText } from './wire.js';

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

/**
 * Why a call of the suite's own set-up failed: `unreachable` (no answer: refused, reset, timed out), `refused` (an
 * error status: a wrong key, a server error), or `invalid` (a 2xx whose body the spec refuses: a failure of the
 * server). `operation` is the operation id; the message names it, its method and path, and what went wrong.
 */
export class SetupError extends Error {
  constructor(
    message: string,
    readonly operation: string,
    readonly kind: 'unreachable' | 'refused' | 'invalid',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SetupError';
  }
}

/**
 * Calls operation `operationId` through `call` and answers its body, checked against the spec: a 2xx body its
 * declared schema refuses, an error status or no answer throw a `SetupError` naming the operation and the request.
 * `validate: false` for calls whose answer is not one body (a session).
 */
export async function checkedCall<T>(
  spec: ConformanceSpec,
  client: Client,
  operationId: string,
  call: () => Promise<T>,
  validate = true,
): Promise<T> {
  const op = spec.ir.operations.find((o) => o.id === operationId);
  if (!op) throw new Error(`the spec has no operation ${operationId}`);
  const where = `${operationId} (${op.method.toUpperCase()} ${op.path})`;
  let body: T;
  try {
    body = await call();
  } catch (error) {
    if (error instanceof ApiError)
      throw new SetupError(`${where} answered ${error.status} ${error.code}: ${error.message}`, op.id, 'refused', {
        cause: error,
      });
    const text = networkErrorText(error instanceof ApiConnectionError && error.cause ? error.cause : error);
    const server = client.core.options.baseUrl;
    if (error instanceof ApiConnectionError)
      throw new SetupError(`${where}: no answer from ${server}: ${text}`, op.id, 'unreachable', { cause: error });
    throw new SetupError(`${where} on ${server}: ${text}`, op.id, 'invalid', { cause: error });
  }
  if (!validate) return body;
  const successes = op.responses.filter((r) => r.status.startsWith('2'));
  const problems: string[] = [];
  for (const response of successes) {
    const check = spec.responseValidator(response);
    if (!check || check(body)) return body;
    const name = refName(response.schema) ?? 'its schema';
    problems.push(`not a valid ${name}${'errors' in check ? `: ${JSON.stringify(check.errors).slice(0, 300)}` : ''}`);
  }
  if (successes.length === 0) return body;
  throw new SetupError(
    `${where} answered a body the spec refuses: ${JSON.stringify(body)?.slice(0, 300)} is ${problems.join('; ')}`,
    op.id,
    'invalid',
  );
}

/**
 * Creates the fixtures through `client`, every answer checked against the spec (`checkedCall`): a server whose
 * answers cannot be used stops here with a `SetupError` that says which operation answered what.
 */
export async function createFixtures(client: Client): Promise<Fixtures> {
  const spec = await loadConformanceSpec();
  const step = <T>(operationId: string, call: () => Promise<T>, validate = true) =>
    checkedCall(spec, client, operationId, call, validate);
  const procedural = await step('createProceduralAgent', () =>
    client.proceduralAgents.create({
      name: 'Conformance summary',
      config: { runtime: { prompt: { type: 'fixed', text: 'Summarise.' } } },
    }),
  );
  const created = await step('createConversationalAgent', () =>
    client.conversationalAgents.create({
      name: 'Conformance agent',
      description: 'Made by the conformance suite.',
      config: agentConfig(),
      postprocess_agents: [procedural.id],
    }),
  );
  const draft = await step('updateConversationalAgent', () =>
    client.conversationalAgents.update(created.id, { name: 'Conformance agent (draft)' }),
  );
  const conversation = (type: 'chat_realtime' | 'chat_async') =>
    step('createConversation', () => client.conversations.create({ agent_id: created.id, channel: { type } }));
  const live = await conversation('chat_realtime');
  const ended = await conversation('chat_async');
  const events = await step('openConversationSession', () => chatThenEnd(client, ended.id, 'hello'), false);
  const phone = await step('createConversation', () =>
    client.conversations.create({ agent_id: created.id, channel: { type: 'phone', callee_no: '+15550001111' } }),
  );
  const customerId = (await step('getConversation', () => client.conversations.retrieve(phone.id))).customer_id;
  const procedures = await step('listProcedures', () =>
    client.procedures.list({ conversation_id: ended.id }).firstPage(),
  );
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
