/** Shared end-to-end fixtures: agent bodies, the agents of a scenario, and bounded readers of streams and sessions. */
import type { Client } from '../../generated/src/client.gen.js';
import type {
  ConversationalAgentConfig,
  CreateConversationRequest,
  ProceduralAgentConfig,
  ServerEvent,
} from '../../generated/src/types.gen.js';
import { type Harness, startServer } from './harness.js';

/** Longest wait for any awaited event in these tests. */
export const WAIT_MS = 5_000;
/** Most events any test reads from one stream or session. */
export const MAX_EVENTS = 500;

/** The name of the tool the agent's configuration offers (its API tool's `entity_id`). */
export const TOOL = 'order_lookup';

/** A conversational configuration with one API tool and one transfer. */
export function agentConfig(): ConversationalAgentConfig {
  return {
    personas: [{ name: 'Ava', voice: { id: 'Female 1' } }],
    voice: { boosted_keywords: ['Acme'] },
    runtime: { model: 'provider_a/gpt-4o', prompt: { text: 'You are Ava.' }, variables: [] },
    tool: { tools: [{ entity_id: TOOL }], transfers: [{ id: 'desk' }] },
    language: { default_language: 'English', supported_languages: ['English', 'Spanish'] },
    channel: { is_voicemail_enabled: true },
  } as ConversationalAgentConfig;
}

/** A procedural configuration; `filter_statuses` limits the conversations it runs after. */
export function proceduralConfig(filterStatuses: string[] = []): ProceduralAgentConfig {
  return {
    filter_statuses: filterStatuses,
    runtime: { prompt: { text: 'Summarise the conversation.', type: 'fixed' }, reasoning_effort: 'medium' },
  } as ProceduralAgentConfig;
}

/** The agents of a scenario: a procedural agent and a released conversational agent that runs it afterwards. */
export interface ScenarioAgents {
  readonly proceduralId: string;
  readonly agentId: string;
  /** The released version, `ca_<id>@v<n>`. */
  readonly releasedVersion: string;
}

/**
 * Creates a procedural agent, a conversational agent with it in `postprocess_agents`, updates the agent into a
 * draft and releases that draft.
 */
export async function createScenarioAgents(client: Client, extraProcedural: string[] = []): Promise<ScenarioAgents> {
  const procedural = await client.proceduralAgents.create({
    name: 'Summariser',
    description: 'Summarises every conversation.',
    config: proceduralConfig(),
  });
  const agent = await client.conversationalAgents.create({
    name: 'Ava',
    description: 'Order support.',
    config: agentConfig(),
    postprocess_agents: [procedural.id, ...extraProcedural],
  });
  const draft = await client.conversationalAgents.update(agent.id, { description: 'Order support (v2).' });
  await client.conversationalAgents.release(draft.version_id);
  return { proceduralId: procedural.id, agentId: agent.id, releasedVersion: draft.version_id };
}

/** A fresh reference server (see `startServer`) and the scenario agents created on it. */
export async function startScenario(): Promise<{ h: Harness; agents: ScenarioAgents }> {
  const h = await startServer();
  return { h, agents: await createScenarioAgents(h.writer) };
}

/** Starts a conversation with the agent's released version. */
export function startConversation(client: Client, agentId: string, channel: CreateConversationRequest['channel']) {
  return client.conversations.create({ agent_id: agentId, channel });
}

/** Reads `source` until `done(event)` (inclusive) or its end; fails after `WAIT_MS` or `MAX_EVENTS` events. */
export async function readUntil<E>(source: AsyncIterable<E>, done: (event: E) => boolean = () => false): Promise<E[]> {
  const iterator = source[Symbol.asyncIterator]();
  const events: E[] = [];
  const deadline = Date.now() + WAIT_MS;
  try {
    while (events.length < MAX_EVENTS) {
      const result = await within(iterator.next(), deadline - Date.now(), events);
      if (result.done) return events;
      events.push(result.value);
      if (done(result.value)) return events;
    }
    throw new Error(`More than ${MAX_EVENTS} events without the awaited one.`);
  } finally {
    // Not awaited: a generator's return() waits for a pending next(), which a timeout leaves behind.
    void iterator.return?.();
  }
}

/** `readUntil` the first event whose payload type is `type`. */
export function readUntilType(source: AsyncIterable<ServerEvent>, type: ServerEvent['payload']['type']) {
  return readUntil(source, (event) => event.payload.type === type);
}

/** The payload types of events, in order. */
export function typesOf(events: readonly ServerEvent[]): string[] {
  return events.map((event) => event.payload.type);
}

/** The ids of events, in order. */
export function idsOf(events: readonly ServerEvent[]): string[] {
  return events.map((event) => event.id);
}

/** Resolves or rejects as `promise`, or rejects after `ms` naming what was read so far. */
function within<T>(promise: Promise<T>, ms: number, sofar: readonly unknown[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const seen = sofar.map((e) => (e as Partial<ServerEvent>).payload?.type ?? typeof e).join(', ');
        reject(new Error(`No awaited event within ${WAIT_MS} ms; read: ${seen || 'nothing'}`));
      },
      Math.max(0, ms),
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The error `promise` rejects with, checked to be an instance of `type`; fails when it resolves. */
export async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a ${type.name}, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof type)) throw outcome.error;
  return outcome.error;
}
